import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import { OFFLINE_COPY_NETWORK_MODE } from '@/lib/query-client';
import type { AssessmentForm } from './types';

/** A new assessment form filled from its intake. */
export const getAssessmentPrefill = (intakeId: string, signal?: AbortSignal) => api.get<AssessmentForm>('/api/assessments/prefill', { intake_id: intakeId }, signal);

export function assessmentPrefillQueryOptions(intakeId: string | null) {
  return queryOptions({
    queryKey: queryKeys.assessmentPrefill(intakeId),
    queryFn: ({ signal }) => getAssessmentPrefill(intakeId ?? '', signal),
    ...OFFLINE_COPY_NETWORK_MODE,
    enabled: Boolean(intakeId),
    staleTime: Infinity,
    meta: { errorMessage: 'Failed to load intake data' },
  });
}

export const usePrefill = (intakeId: string | null) => useQuery(assessmentPrefillQueryOptions(intakeId));
