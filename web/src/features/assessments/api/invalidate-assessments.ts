import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';

/** After an assessment changed: its lists, the client, the counts and its care plans are stale. */
export function useAssessmentChanged() {
  const queryClient = useQueryClient();
  return () => {
    for (const root of [queryKeys.assessments, ['assessment'], queryKeys.intakes, queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.carePlans]) {
      void queryClient.invalidateQueries({ queryKey: root });
    }
  };
}
