import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { DashboardResponse } from './types';

export const getDashboard = (signal?: AbortSignal) => api.get<DashboardResponse>('/api/dashboard', undefined, signal);

export const dashboardQueryOptions = queryOptions({
  queryKey: queryKeys.dashboard,
  queryFn: ({ signal }) => getDashboard(signal),
  meta: { silent: true },
});

/** The dashboard of one owner's clients (`me`, `unassigned` or a user's id); the agency's when empty. */
export function dashboardForQueryOptions(owner: string) {
  return queryOptions({
    queryKey: owner ? [...queryKeys.dashboard, owner] : [...queryKeys.dashboard],
    queryFn: ({ signal }) => api.get<DashboardResponse>('/api/dashboard', { owner: owner || undefined }, signal),
    meta: { silent: true },
  });
}

export function useDashboard(owner = '') {
  return useQuery(dashboardForQueryOptions(owner));
}
