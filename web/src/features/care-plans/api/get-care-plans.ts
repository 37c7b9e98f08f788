import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api, withQuery } from '@/lib/api-client';
import type { CarePlanPage, CarePlanStatus } from './types';

export interface CarePlansQuery {
  status?: CarePlanStatus | undefined;
  q?: string | undefined;
  cursor?: string | null;
}

export const getCarePlans = (query: CarePlansQuery, signal?: AbortSignal) => api.get<CarePlanPage>('/api/care-plans', { ...query }, signal);

export function carePlansQueryOptions(query: CarePlansQuery) {
  return queryOptions({
    queryKey: queryKeys.carePlanList(query),
    queryFn: ({ signal }) => getCarePlans(query, signal),
    placeholderData: keepPreviousData,
    meta: { errorMessage: 'Failed to load care plans' },
  });
}

export const useCarePlans = (query: CarePlansQuery) => useQuery(carePlansQueryOptions(query));

/** The care plans export with the list's filter: the file holds the rows the list shows. */
export const carePlansExportUrl = (query: Pick<CarePlansQuery, 'status' | 'q'>) => withQuery('/api/care-plans/export.csv', { status: query.status, q: query.q });
