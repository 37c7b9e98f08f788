import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { CarePlan } from './types';

export const getCarePlan = (id: string, signal?: AbortSignal) => api.get<CarePlan>(`/api/care-plans/${id}`, undefined, signal);

export function carePlanQueryOptions(id: string | null) {
  return queryOptions({
    queryKey: queryKeys.carePlan(id),
    queryFn: ({ signal }) => getCarePlan(id ?? '', signal),
    enabled: Boolean(id),
    meta: { errorMessage: 'Failed to load care plan' },
  });
}

export const useCarePlan = (id: string | null) => useQuery(carePlanQueryOptions(id));
