import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { PricingTemplate } from './types';

export const getPricingTemplates = (signal?: AbortSignal) => api.get<{ items: PricingTemplate[] }>('/api/pricing-templates', undefined, signal);

export const pricingTemplatesQueryOptions = queryOptions({
  queryKey: queryKeys.pricingTemplates,
  queryFn: ({ signal }) => getPricingTemplates(signal),
  staleTime: 60_000,
  meta: { silent: true },
});

export const usePricingTemplates = () => useQuery(pricingTemplatesQueryOptions);
