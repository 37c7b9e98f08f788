import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import { OFFLINE_COPY_NETWORK_MODE } from '@/lib/query-client';
import type { Assessment } from './types';

export const getAssessment = (id: string, signal?: AbortSignal) => api.get<Assessment>(`/api/assessments/${id}`, undefined, signal);

export function assessmentQueryOptions(id: string | null) {
  return queryOptions({
    queryKey: queryKeys.assessment(id),
    queryFn: ({ signal }) => getAssessment(id ?? '', signal),
    ...OFFLINE_COPY_NETWORK_MODE,
    enabled: Boolean(id),
    staleTime: Infinity,
    meta: { errorMessage: 'Failed to load assessment' },
  });
}

export const useAssessment = (id: string | null) => useQuery(assessmentQueryOptions(id));
