import { useQueryClient } from '@tanstack/react-query';
import { queryKeys, STALE_ROOTS, useInvalidate } from '@/api/query-keys';
import type { CarePlan } from './types';

/** After a care plan changed: its lists, the client it belongs to and the counts are stale. */
export function useCarePlanChanged() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return (plan?: CarePlan) => {
    if (plan) queryClient.setQueryData(queryKeys.carePlan(plan.id), plan);
    void invalidate(STALE_ROOTS.care_plan);
  };
}
