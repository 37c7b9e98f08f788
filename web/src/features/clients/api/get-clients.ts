import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api, withQuery } from '@/lib/api-client';
import { clientsAddress } from './address';
import type { ClientPage, ClientsQuery } from './types';

export const getClients = (query: ClientsQuery, signal?: AbortSignal) => api.get<ClientPage>(clientsAddress(query), undefined, signal);

export function clientsQueryOptions(query: ClientsQuery) {
  return queryOptions({
    queryKey: queryKeys.clientList(query),
    queryFn: ({ signal }) => getClients(query, signal),
    placeholderData: keepPreviousData,
    meta: { errorPrefix: 'Failed to load clients' },
  });
}

export const useClients = (query: ClientsQuery) => useQuery(clientsQueryOptions(query));

/** The clients export with the list's filters: the file holds every row the list shows. */
export function clientsExportUrl(query: Pick<ClientsQuery, 'stage' | 'urgency' | 'q'>): string {
  return withQuery('/api/clients/export.csv', { stage: query.stage, urgency: query.urgency, q: query.q });
}

