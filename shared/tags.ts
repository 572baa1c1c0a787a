// Tags of prompts and tips. Free of zod, so the SPA's forms apply the very rule the server does.

/** What makes two tags the same tag: case does not count. */
export function tagKey(tag: string): string {
  return tag.toLowerCase();
}

/**
 * Tags as a person types them (spec: "comma separated, trimmed, empties dropped"): each part split at commas,
 * trimmed, empty ones dropped, and a tag repeated in another case kept once, as first spelled. Every stored tag
 * is thus free of commas, so a comma-separated filter can always name it.
 */
export function normaliseTags(parts: readonly string[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of parts.flatMap((part) => part.split(',')).map((t) => t.trim())) {
    const key = tagKey(tag);
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}
