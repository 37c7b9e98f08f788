import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { ContractPreview } from './types';

/** The contract text for a care plan with every placeholder filled by the server. */
export const getContractPreview = (carePlanId: string, signal?: AbortSignal) => api.get<ContractPreview>('/api/contracts/preview', { care_plan_id: carePlanId }, signal);

export function contractPreviewQueryOptions(carePlanId: string | null) {
  return queryOptions({
    queryKey: queryKeys.contractPreview(carePlanId),
    queryFn: ({ signal }) => getContractPreview(carePlanId ?? '', signal),
    enabled: Boolean(carePlanId),
    staleTime: Infinity,
    meta: { errorMessage: 'Failed to load care plan data' },
  });
}

export const useContractPreview = (carePlanId: string | null) => useQuery(contractPreviewQueryOptions(carePlanId));
