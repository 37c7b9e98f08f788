import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useAssessmentChanged } from './invalidate-assessments';

/** A soft delete (admin). */
export const deleteAssessment = (assessmentId: string) => api.delete<undefined>(`/api/assessments/${assessmentId}`);

export function useDeleteAssessment() {
  const changed = useAssessmentChanged();
  return useMutation({ mutationFn: deleteAssessment, meta: { errorMessage: 'Failed to delete assessment' }, onSuccess: changed });
}
