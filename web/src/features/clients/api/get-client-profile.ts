import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import { OFFLINE_COPY_NETWORK_MODE } from '@/lib/query-client';
import type { ClientProfile } from './types';

export const getClientProfile = (id: string, signal?: AbortSignal) => api.get<ClientProfile>(`/api/clients/${id}`, undefined, signal);

export function clientProfileQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.client(id),
    queryFn: ({ signal }) => getClientProfile(id, signal),
    meta: { errorMessage: 'Failed to load client details' },
    ...OFFLINE_COPY_NETWORK_MODE,
  });
}

export const useClientProfile = (id: string) => useQuery(clientProfileQueryOptions(id));
