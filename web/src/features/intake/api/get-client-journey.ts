import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { ClientJourney } from './types';

/** The client's journey beside a saved intake (shares the client profile's cache entry). */
export function useClientJourney(id: string | null) {
  return useQuery({
    queryKey: queryKeys.client(id),
    queryFn: ({ signal }) => api.get<ClientJourney>(`/api/clients/${id ?? ''}`, undefined, signal),
    enabled: Boolean(id),
    meta: { silent: true },
  });
}
