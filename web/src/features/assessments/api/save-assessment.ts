import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { OFFLINE_COPY_NETWORK_MODE } from '@/lib/query-client';
import { useAssessmentChanged } from './invalidate-assessments';
import type { Assessment, SaveAssessmentBody, UpdateAssessmentBody } from './types';

export interface SaveAssessmentVariables {
  existing: Assessment | null;
  body: SaveAssessmentBody;
}

/** Saves a completed assessment (all required fields checked by the server). */
export function saveAssessment({ existing, body }: SaveAssessmentVariables): Promise<Assessment> {
  if (existing) {
    const update: UpdateAssessmentBody = { version: existing.version, form: body.form };
    return api.put<Assessment>(`/api/assessments/${existing.id}`, update);
  }
  return api.post<Assessment>('/api/assessments', body);
}

/** Saves a draft: no field is required. */
export function saveAssessmentDraft({ existing, body }: SaveAssessmentVariables): Promise<Assessment> {
  return existing ? api.put<Assessment>(`/api/assessments/${existing.id}/draft`, { version: existing.version, form: body.form }) : api.post<Assessment>('/api/assessments/draft', body);
}

export function useSaveAssessment() {
  const changed = useAssessmentChanged();
  return useMutation({ mutationFn: saveAssessment, meta: { errorMessage: 'Failed to save assessment' }, onSuccess: changed, ...OFFLINE_COPY_NETWORK_MODE });
}

export function useSaveAssessmentDraft() {
  const changed = useAssessmentChanged();
  return useMutation({ mutationFn: saveAssessmentDraft, meta: { errorMessage: 'Failed to save draft' }, onSuccess: changed, ...OFFLINE_COPY_NETWORK_MODE });
}
