import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type AwaitingAssessment = Schemas['AwaitingAssessment'];

/** Intakes that have no assessment yet: how many (the server counts them) and the oldest. */
export const getAwaitingAssessment = (signal?: AbortSignal) => api.get<AwaitingAssessment>('/api/intakes/awaiting-assessment', undefined, signal);

export const awaitingAssessmentQueryOptions = queryOptions({
  queryKey: queryKeys.awaitingAssessment,
  queryFn: ({ signal }) => getAwaitingAssessment(signal),
  meta: { silent: true },
});

export const useAwaitingAssessment = () => useQuery(awaitingAssessmentQueryOptions);
