import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { DashboardResponse } from './types';

export const getDashboard = (signal?: AbortSignal) => api.get<DashboardResponse>('/api/dashboard', undefined, signal);

export const dashboardQueryOptions = queryOptions({
  queryKey: ['dashboard'],
  queryFn: ({ signal }) => getDashboard(signal),
  meta: { silent: true },
});

export function useDashboard() {
  return useQuery(dashboardQueryOptions);
}
