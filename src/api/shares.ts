import { pathTo, paths } from '../../contract/api-paths';
import type { ShareLink, SharedConversation } from '../../contract/shares';
import { api } from './http';

/** The conversation's read-only link (asking again gives the same link, its snapshot brought up to now). */
export async function createShareLink(conversationId: string): Promise<string> {
  return (await api.post<ShareLink>(pathTo(paths.shareConversation, { id: conversationId }))).data.share_url;
}

export async function fetchSharedConversation(shareId: string, signal?: AbortSignal): Promise<SharedConversation> {
  return (await api.get<SharedConversation>(pathTo(paths.share, { shareId }), { signal })).data;
}
