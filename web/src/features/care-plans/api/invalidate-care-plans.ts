import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { CarePlan } from './types';

/** After a care plan changed: its lists, the client it belongs to and the counts are stale. */
export function useCarePlanChanged() {
  const queryClient = useQueryClient();
  return (plan?: CarePlan) => {
    if (plan) queryClient.setQueryData(queryKeys.carePlan(plan.id), plan);
    for (const root of [queryKeys.carePlans, queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.assessments, queryKeys.communications]) {
      void queryClient.invalidateQueries({ queryKey: root, refetchType: 'active' });
    }
  };
}
