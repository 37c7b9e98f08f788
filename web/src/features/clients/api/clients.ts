import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api, withQuery } from '@/lib/api-client';
import type { ClientPage, ClientProfile, ClientsQuery } from './types';

export function clientsQueryOptions(query: ClientsQuery) {
  return queryOptions({
    queryKey: queryKeys.clientList(query),
    queryFn: ({ signal }) => api.get<ClientPage>('/api/clients', { ...query }, signal),
    placeholderData: keepPreviousData,
    meta: { errorPrefix: 'Failed to load clients' },
  });
}

export function useClients(query: ClientsQuery) {
  return useQuery(clientsQueryOptions(query));
}

/** The clients export with the list's filters: the file holds every row the list shows. */
export function clientsExportUrl(query: Pick<ClientsQuery, 'stage' | 'urgency' | 'q'>): string {
  return withQuery('/api/clients/export.csv', { stage: query.stage, urgency: query.urgency, q: query.q });
}

export function useClientProfile(id: string) {
  return useQuery({
    queryKey: queryKeys.client(id),
    queryFn: ({ signal }) => api.get<ClientProfile>(`/api/clients/${id}`, undefined, signal),
    meta: { errorMessage: 'Failed to load client details' },
  });
}
