import type { SearchConfig } from '../../../config';
import { searchBrave } from './search-brave';
import { searchSearxng } from './search-searxng';
import { searchTavily } from './search-tavily';
import type { SearchRequest, SearchResult } from './search-http';

export type SearchProvider = (config: SearchConfig, request: SearchRequest) => Promise<SearchResult[]>;

const PROVIDERS: Record<SearchConfig['provider'], SearchProvider> = {
  searxng: searchSearxng,
  tavily: searchTavily,
  brave: searchBrave,
};

/**
 * Searches the web with the configured provider; only http(s) results with a URL are kept, without duplicates.
 * The provider is the administrator's choice (an intranet SearXNG is normal), so it is called directly; the
 * pages it names are read through the SSRF guard (safe-fetch.ts).
 */
export async function searchWeb(config: SearchConfig, request: SearchRequest): Promise<SearchResult[]> {
  const results = await PROVIDERS[config.provider](config, request);
  const seen = new Set<string>();
  return results.filter((r) => {
    if (!/^https?:\/\//i.test(r.url) || seen.has(r.url)) return false;
    seen.add(r.url);
    return true;
  });
}
