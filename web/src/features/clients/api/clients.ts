import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ClientPage, ClientProfile, ClientsQuery } from './types';

export function clientsQueryOptions(query: ClientsQuery) {
  return queryOptions({
    queryKey: ['clients', query],
    queryFn: ({ signal }) => api.get<ClientPage>('/api/clients', { ...query }, signal),
    placeholderData: keepPreviousData,
    meta: { errorMessage: 'Failed to load clients' },
  });
}

export function useClients(query: ClientsQuery) {
  return useQuery(clientsQueryOptions(query));
}

/** The whole clients export (`carepath export clients`); the server does not filter it. */
export const CLIENTS_EXPORT_URL = '/api/clients/export.csv';

export function useClientProfile(id: string) {
  return useQuery({
    queryKey: ['client', id],
    queryFn: ({ signal }) => api.get<ClientProfile>(`/api/clients/${id}`, undefined, signal),
    meta: { errorMessage: 'Failed to load client details' },
  });
}
