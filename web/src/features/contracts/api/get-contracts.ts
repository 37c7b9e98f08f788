import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api, withQuery } from '@/lib/api-client';
import type { ContractFilter, ContractList } from './types';

export interface ContractsQuery {
  status?: ContractFilter | undefined;
  q?: string | undefined;
}

/** The 20 newest contracts that match, with the three stat cards' counts. */
export const getContracts = (query: ContractsQuery, signal?: AbortSignal) => api.get<ContractList>('/api/contracts', { ...query }, signal);

export function contractsQueryOptions(query: ContractsQuery) {
  return queryOptions({
    queryKey: queryKeys.contractList(query),
    queryFn: ({ signal }) => getContracts(query, signal),
    placeholderData: keepPreviousData,
    // The spec only logs a failed contracts load.
    meta: { silent: true },
  });
}

export const useContracts = (query: ContractsQuery) => useQuery(contractsQueryOptions(query));

export const contractsExportUrl = (query: ContractsQuery) => withQuery('/api/contracts/export.csv', { status: query.status, q: query.q });
