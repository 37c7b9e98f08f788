import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import { intakeAddress } from './address';
import type { Intake } from './types';

export function intakeQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.intake(id),
    queryFn: ({ signal }) => api.get<Intake>(intakeAddress(id), undefined, signal),
    meta: { errorMessage: 'Failed to load intake' },
    staleTime: Infinity,
  });
}

export function useIntake(id: string | null) {
  return useQuery({ ...intakeQueryOptions(id ?? ''), enabled: Boolean(id) });
}
