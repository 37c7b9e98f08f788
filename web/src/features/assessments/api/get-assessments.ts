import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api, withQuery } from '@/lib/api-client';
import type { AssessmentFilter, AssessmentPage } from './types';

export interface AssessmentsQuery {
  status?: AssessmentFilter | undefined;
  q?: string | undefined;
  cursor?: string | null;
}

export const getAssessments = (query: AssessmentsQuery, signal?: AbortSignal) => api.get<AssessmentPage>('/api/assessments', { ...query }, signal);

export function assessmentsQueryOptions(query: AssessmentsQuery) {
  return queryOptions({
    queryKey: queryKeys.assessmentList(query),
    queryFn: ({ signal }) => getAssessments(query, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

export const useAssessments = (query: AssessmentsQuery) => useQuery(assessmentsQueryOptions(query));

/** The assessments export with the list's filters: the file holds every row the list shows. */
export function assessmentsExportUrl(query: Pick<AssessmentsQuery, 'status' | 'q'>): string {
  return withQuery('/api/assessments/export.csv', { status: query.status, q: query.q });
}
