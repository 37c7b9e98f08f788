import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { IntakeSummary } from '@/api/types';
import { api } from '@/lib/api-client';

/** Intakes that have no assessment yet. */
export const getAwaitingAssessment = (signal?: AbortSignal) => api.get<{ items: IntakeSummary[] }>('/api/intakes/awaiting-assessment', undefined, signal);

export const awaitingAssessmentQueryOptions = queryOptions({
  queryKey: queryKeys.awaitingAssessment,
  queryFn: ({ signal }) => getAwaitingAssessment(signal),
  meta: { silent: true },
});

export const useAwaitingAssessment = () => useQuery(awaitingAssessmentQueryOptions);
