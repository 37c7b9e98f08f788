import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useAssessmentChanged } from './invalidate-assessments';
import type { CreatedCarePlan } from './types';

/** Creates the care plan of a completed assessment; the answer's `id` opens it. */
export const generateCarePlan = (assessmentId: string) => api.post<CreatedCarePlan>(`/api/assessments/${assessmentId}/care-plan`);

export function useGenerateCarePlan() {
  const changed = useAssessmentChanged();
  return useMutation({ mutationFn: generateCarePlan, meta: { errorMessage: 'Failed to create care plan' }, onSuccess: changed });
}
