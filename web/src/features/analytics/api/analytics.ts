import { subDays } from 'date-fns';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type Analytics = Schemas['Analytics'];

export function analyticsQueryOptions(from: string, to: string) {
  return queryOptions({
    queryKey: queryKeys.analytics(from, to),
    queryFn: ({ signal }) => api.get<Analytics>('/api/analytics', { from, to }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAnalytics(from: string, to: string) {
  return useQuery(analyticsQueryOptions(from, to));
}

const isoDate = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The range the analytics screen opens on: the last 90 days, today included. */
export function defaultAnalyticsRange(today = new Date()): { from: string; to: string } {
  return { from: isoDate(subDays(today, 89)), to: isoDate(today) };
}
