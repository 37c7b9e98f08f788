import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCarePlanChanged } from './invalidate-care-plans';

export const deleteCarePlan = (id: string) => api.delete<undefined>(`/api/care-plans/${id}`);

export function useDeleteCarePlan() {
  const changed = useCarePlanChanged();
  return useMutation({ mutationFn: deleteCarePlan, meta: { errorMessage: 'Failed to delete care plan' }, onSuccess: () => changed() });
}
