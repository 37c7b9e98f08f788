import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCarePlanChanged } from './invalidate-care-plans';
import type { CarePlan } from './types';

/** The family said yes: a sent plan becomes approved. */
export const approveCarePlan = (id: string) => api.post<CarePlan>(`/api/care-plans/${id}/approve`);

export function useApproveCarePlan() {
  const changed = useCarePlanChanged();
  return useMutation({ mutationFn: approveCarePlan, meta: { errorMessage: 'Failed to mark care plan approved' }, onSuccess: changed });
}
