import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';
import { OFFLINE_COPY_NETWORK_MODE } from '@/lib/query-client';

export type ClientContext = Schemas['ClientProfile'];

/** The client profile the side panel shows beside a form (name, journey, contact details). */
export const getClientContext = (intakeId: string, signal?: AbortSignal) => api.get<ClientContext>(`/api/clients/${intakeId}`, undefined, signal);

export function clientContextQueryOptions(intakeId: string | null) {
  return queryOptions({
    queryKey: queryKeys.client(intakeId),
    queryFn: ({ signal }) => getClientContext(intakeId ?? '', signal),
    ...OFFLINE_COPY_NETWORK_MODE,
    enabled: Boolean(intakeId),
    meta: { silent: true },
  });
}

export const useClientContext = (intakeId: string | null) => useQuery(clientContextQueryOptions(intakeId));
