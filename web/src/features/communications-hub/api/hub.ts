import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api, type Page } from '@/lib/api-client';

export type HubCommunication = Schemas['Communication'];
export type OutboxEntry = Schemas['OutboxEntry'];
export type OutboxMessage = Schemas['OutboxMessage'];

export interface HubFilters {
  /** `me` or a user's id: only their clients' communications; '' for everyone's. */
  owner: string;
  type: string;
  status: string;
  /** `all`, or `inbound` for the families' replies only. */
  direction: string;
  q: string;
  cursor: string | null;
}

export function hubQueryOptions(filters: HubFilters) {
  return queryOptions({
    queryKey: queryKeys.hub(filters),
    queryFn: ({ signal }) =>
      api.get<Page<HubCommunication>>(
        '/api/communications/hub',
        { owner: filters.owner || undefined, type: filters.type === 'all' ? undefined : filters.type, status: filters.status === 'all' ? undefined : filters.status, direction: filters.direction === 'all' ? undefined : filters.direction, q: filters.q, cursor: filters.cursor },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useHub(filters: HubFilters) {
  return useQuery(hubQueryOptions(filters));
}

export const outboxQueryOptions = queryOptions({
  queryKey: queryKeys.outbox,
  queryFn: ({ signal }) => api.get<{ items: OutboxEntry[] }>('/api/outbox', undefined, signal),
});

export function useOutbox() {
  return useQuery(outboxQueryOptions);
}

export function useOutboxMessage(fileName: string | null) {
  return useQuery({
    queryKey: queryKeys.outboxMessage(fileName),
    queryFn: ({ signal }) => api.get<OutboxMessage>(`/api/outbox/${encodeURIComponent(fileName ?? '')}`, undefined, signal),
    enabled: fileName !== null,
  });
}

/** Replies no client could be found for, newest first. */
export function useUnmatchedReplies(cursor: string | null) {
  return useQuery({
    queryKey: queryKeys.unmatchedReplies(cursor),
    queryFn: ({ signal }) => api.get<Page<HubCommunication>>('/api/communications/unmatched', { cursor }, signal),
    placeholderData: keepPreviousData,
  });
}

/** An administrator puts an unmatched reply on a client's timeline. */
export function useAssignReply() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, intakeId }: { id: string; intakeId: string }) => api.post<HubCommunication>(`/api/communications/${id}/assign`, { intake_id: intakeId }),
    meta: { errorMessage: 'Failed to assign the reply' },
    onSettled: () => invalidate([queryKeys.communications]),
  });
}
