import { useInfiniteQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type FollowUpsPage = Schemas['Page_IntakeBrief'];

export const getFollowUps = (cursor: string, owner: string, signal?: AbortSignal) =>
  api.get<FollowUpsPage>('/api/dashboard/follow-ups', { cursor, owner: owner || undefined }, signal);

/** The follow-ups due today after the dashboard's first page, loaded page by page on demand. */
export function useMoreFollowUps(firstCursor: string | null | undefined, enabled: boolean, owner = '') {
  return useInfiniteQuery({
    queryKey: queryKeys.followUps(owner, firstCursor),
    queryFn: ({ pageParam, signal }) => getFollowUps(pageParam, owner, signal),
    initialPageParam: firstCursor ?? '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: enabled && Boolean(firstCursor),
  });
}
