import { pathTo, paths } from '../../contract/api-paths';
import type { MessageOnly } from '../../contract/envelope';
import type { ShareLink, ShareList, SharedConversation } from '../../contract/shares';
import { api } from './http';

/** The conversation's read-only link and its id (asking again gives the same link, its snapshot brought up to now). */
export async function createShareLink(conversationId: string): Promise<ShareLink> {
  return (await api.post<ShareLink>(pathTo(paths.shareConversation, { id: conversationId }))).data;
}

export async function fetchSharedConversation(shareId: string, signal?: AbortSignal): Promise<SharedConversation> {
  return (await api.get<SharedConversation>(pathTo(paths.share, { shareId }), { signal })).data;
}

/** A page of my shared links, newest first. */
export async function fetchMyShares(q: { page: number; pageSize: number }, signal?: AbortSignal): Promise<ShareList> {
  return (await api.get<ShareList>(paths.shares, { query: { page: q.page, page_size: q.pageSize }, signal })).data;
}

/** Stops sharing: the link opens nothing from now on. */
export async function revokeShareLink(shareId: string): Promise<MessageOnly> {
  return (await api.delete<MessageOnly>(pathTo(paths.share, { shareId }))).data;
}
