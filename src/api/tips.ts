import { paths } from '../../contract/api-paths';
import type { TipLevel, TipList } from '../../contract/tips';
import { api } from './http';

export interface TipQuery {
  page: number;
  limit: number;
  search: string;
  level: TipLevel | null;
  tag: string | null;
}

export async function fetchTips(q: TipQuery, signal?: AbortSignal): Promise<TipList> {
  const query = {
    page: q.page,
    limit: q.limit,
    ...(q.search ? { search: q.search } : {}),
    ...(q.level ? { level: q.level } : {}),
    ...(q.tag ? { tags: q.tag } : {}),
  };
  return (await api.get<TipList>(paths.tips, { query, signal })).data;
}
