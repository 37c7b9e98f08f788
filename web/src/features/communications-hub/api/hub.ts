import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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
  q: string;
  cursor: string | null;
}

export function hubQueryOptions(filters: HubFilters) {
  return queryOptions({
    queryKey: ['communications', 'hub', filters],
    queryFn: ({ signal }) =>
      api.get<Page<HubCommunication>>(
        '/api/communications/hub',
        { owner: filters.owner || undefined, type: filters.type === 'all' ? undefined : filters.type, status: filters.status === 'all' ? undefined : filters.status, q: filters.q, cursor: filters.cursor },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useHub(filters: HubFilters) {
  return useQuery(hubQueryOptions(filters));
}

export const outboxQueryOptions = queryOptions({
  queryKey: ['communications', 'outbox'],
  queryFn: ({ signal }) => api.get<{ items: OutboxEntry[] }>('/api/outbox', undefined, signal),
});

export function useOutbox() {
  return useQuery(outboxQueryOptions);
}

export function useOutboxMessage(fileName: string | null) {
  return useQuery({
    queryKey: ['communications', 'outbox', fileName],
    queryFn: ({ signal }) => api.get<OutboxMessage>(`/api/outbox/${encodeURIComponent(fileName ?? '')}`, undefined, signal),
    enabled: fileName !== null,
  });
}
