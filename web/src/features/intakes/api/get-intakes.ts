import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { IntakePage, IntakeUrgency } from './types';

export function useIntakes(urgency: IntakeUrgency | undefined, cursor: string | null) {
  return useQuery({
    queryKey: queryKeys.intakeList({ urgency, cursor }),
    queryFn: ({ signal }) => api.get<IntakePage>('/api/intakes', { urgency, cursor }, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}
