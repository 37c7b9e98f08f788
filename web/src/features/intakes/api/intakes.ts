import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { IntakePage, IntakeUrgency } from './types';

export function useIntakes(urgency: IntakeUrgency | undefined, cursor: string | null) {
  return useQuery({
    queryKey: ['intakes', { urgency, cursor }],
    queryFn: ({ signal }) => api.get<IntakePage>('/api/intakes', { urgency, cursor }, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}
