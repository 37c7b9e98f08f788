import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';
import { analyticsAddress } from './address';

export type Analytics = Schemas['Analytics'];

export function analyticsQueryOptions(from: string, to: string) {
  return queryOptions({
    queryKey: queryKeys.analytics(from, to),
    queryFn: ({ signal }) => api.get<Analytics>(analyticsAddress(from, to), undefined, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAnalytics(from: string, to: string) {
  return useQuery(analyticsQueryOptions(from, to));
}
