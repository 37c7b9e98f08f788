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

export function useDashboard() {
  return useQuery(dashboardQueryOptions);
}
