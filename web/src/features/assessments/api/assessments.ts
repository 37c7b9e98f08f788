import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { IntakeSummary } from '@/api/types';
import { api, withQuery } from '@/lib/api-client';
import type { Assessment, AssessmentFilter, AssessmentForm, AssessmentPage, CreatedCarePlan, SaveAssessmentBody, UpdateAssessmentBody } from './types';

export interface AssessmentsQuery {
  status?: AssessmentFilter | undefined;
  q?: string | undefined;
  cursor?: string | null;
}

export function useAssessments(query: AssessmentsQuery) {
  return useQuery({
    queryKey: queryKeys.assessmentList(query),
    queryFn: ({ signal }) => api.get<AssessmentPage>('/api/assessments', { ...query }, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

/** The assessments export with the list's filters: the file holds every row the list shows. */
export function assessmentsExportUrl(query: Pick<AssessmentsQuery, 'status' | 'q'>): string {
  return withQuery('/api/assessments/export.csv', { status: query.status, q: query.q });
}

export function useAwaitingAssessment() {
  return useQuery({
    queryKey: queryKeys.awaitingAssessment,
    queryFn: ({ signal }) => api.get<{ items: IntakeSummary[] }>('/api/intakes/awaiting-assessment', undefined, signal),
    meta: { silent: true },
  });
}

export function useAssessment(id: string | null) {
  return useQuery({
    queryKey: queryKeys.assessment(id),
    queryFn: ({ signal }) => api.get<Assessment>(`/api/assessments/${id ?? ''}`, undefined, signal),
    enabled: Boolean(id),
    staleTime: Infinity,
    meta: { errorMessage: 'Failed to load assessment' },
  });
}

export function usePrefill(intakeId: string | null) {
  return useQuery({
    queryKey: queryKeys.assessmentPrefill(intakeId),
    queryFn: ({ signal }) => api.get<AssessmentForm>('/api/assessments/prefill', { intake_id: intakeId }, signal),
    enabled: Boolean(intakeId),
    staleTime: Infinity,
    meta: { errorMessage: 'Failed to load intake data' },
  });
}

function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => {
    for (const root of [queryKeys.assessments, ['assessment'], queryKeys.intakes, queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.carePlans]) {
      void queryClient.invalidateQueries({ queryKey: root });
    }
  };
}

export function useSaveAssessment() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ existing, body }: { existing: Assessment | null; body: SaveAssessmentBody }) => {
      if (existing) {
        const update: UpdateAssessmentBody = { version: existing.version, form: body.form };
        return api.put<Assessment>(`/api/assessments/${existing.id}`, update);
      }
      return api.post<Assessment>('/api/assessments', body);
    },
    meta: { errorMessage: 'Failed to save assessment' },
    onSuccess: invalidate,
  });
}

export function useSaveAssessmentDraft() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ existing, body }: { existing: Assessment | null; body: SaveAssessmentBody }) =>
      existing ? api.put<Assessment>(`/api/assessments/${existing.id}/draft`, { version: existing.version, form: body.form }) : api.post<Assessment>('/api/assessments/draft', body),
    meta: { errorMessage: 'Failed to save draft' },
    onSuccess: invalidate,
  });
}

export function useGenerateCarePlan() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (assessmentId: string) => api.post<CreatedCarePlan>(`/api/assessments/${assessmentId}/care-plan`),
    meta: { errorMessage: 'Failed to create care plan' },
    onSuccess: invalidate,
  });
}

export function useDeleteAssessment() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (assessmentId: string) => api.delete<undefined>(`/api/assessments/${assessmentId}`),
    meta: { errorMessage: 'Failed to delete assessment' },
    onSuccess: invalidate,
  });
}
