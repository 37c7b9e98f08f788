import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { Contract } from './types';

export const getContract = (id: string, signal?: AbortSignal) => api.get<Contract>(`/api/contracts/${id}`, undefined, signal);

export function contractQueryOptions(id: string | null) {
  return queryOptions({
    queryKey: queryKeys.contract(id),
    queryFn: ({ signal }) => getContract(id ?? '', signal),
    enabled: Boolean(id),
    meta: { errorMessage: 'Failed to load contract' },
  });
}

export const useContract = (id: string | null) => useQuery(contractQueryOptions(id));
