import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { SendableCarePlan } from './types';

/** Care plans a contract can be generated from: sent or approved. */
export const getSendableCarePlans = (signal?: AbortSignal) => api.get<{ items: SendableCarePlan[] }>('/api/care-plans/sendable', undefined, signal);

export const sendableCarePlansQueryOptions = queryOptions({
  queryKey: queryKeys.sendableCarePlans,
  queryFn: ({ signal }) => getSendableCarePlans(signal),
  meta: { errorMessage: 'Failed to load care plans' },
});

export const useSendableCarePlans = () => useQuery(sendableCarePlansQueryOptions);
