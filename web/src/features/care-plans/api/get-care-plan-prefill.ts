import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { CarePlanPrefill } from './types';

/** A new plan filled from an assessment, with the pricing template the server suggests. */
export const getCarePlanPrefill = (assessmentId: string, signal?: AbortSignal) => api.get<CarePlanPrefill>('/api/care-plans/prefill', { assessment_id: assessmentId }, signal);

export function carePlanPrefillQueryOptions(assessmentId: string | null) {
  return queryOptions({
    queryKey: queryKeys.carePlanPrefill(assessmentId),
    queryFn: ({ signal }) => getCarePlanPrefill(assessmentId ?? '', signal),
    enabled: Boolean(assessmentId),
    staleTime: Infinity,
    meta: { errorTitle: 'Error Loading Assessment', errorMessage: 'Failed to load assessment data' },
  });
}

export const useCarePlanPrefill = (assessmentId: string | null) => useQuery(carePlanPrefillQueryOptions(assessmentId));
