import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { CarePlanQuote, CarePlanQuoteBody } from './types';

/** The server prices a schedule: the cost box shows these figures, the browser computes none. */
export const getCarePlanQuote = (body: CarePlanQuoteBody) => api.post<CarePlanQuote>('/api/care-plans/quote', body);

export function carePlanQuoteQueryOptions(body: CarePlanQuoteBody) {
  return queryOptions({
    queryKey: queryKeys.carePlanQuote(body),
    queryFn: () => getCarePlanQuote(body),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    meta: { silent: true },
  });
}

/** Asks for a quote once the user paused typing for 300 ms. */
export function useCarePlanQuote(body: CarePlanQuoteBody) {
  // Debounced as text: the form builds a new body object on every render.
  const settled = useDebouncedValue(JSON.stringify(body), 300);
  const parsed = useMemo(() => JSON.parse(settled) as CarePlanQuoteBody, [settled]);
  return useQuery(carePlanQuoteQueryOptions(parsed));
}
