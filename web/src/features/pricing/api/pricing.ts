import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type PricingTemplate = Schemas['PricingTemplate'];
export type PricingTemplateInput = Schemas['PricingTemplateInput'];
export type HolidayPolicy = Schemas['HolidayPolicy'];

export const pricingTemplatesQueryOptions = queryOptions({
  queryKey: queryKeys.pricingTemplates,
  queryFn: ({ signal }) => api.get<{ items: PricingTemplate[] }>('/api/pricing-templates', undefined, signal),
});

export const holidayPolicyQueryOptions = queryOptions({
  queryKey: queryKeys.holidayPolicy,
  queryFn: ({ signal }) => api.get<HolidayPolicy>('/api/holiday-policy', undefined, signal),
  staleTime: 60 * 60 * 1000,
});

export function usePricingTemplates() {
  return useQuery(pricingTemplatesQueryOptions);
}

export function useHolidayPolicy() {
  return useQuery(holidayPolicyQueryOptions);
}

/** Creates, updates or deletes a template; the list is read again (one default at a time). */
export function useSavePricingTemplate() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ existing, template }: { existing?: PricingTemplate; template: PricingTemplateInput }) =>
      existing
        ? api.put<PricingTemplate>(`/api/pricing-templates/${existing.id}`, { version: existing.version, template })
        : api.post<PricingTemplate>('/api/pricing-templates', template),
    onSuccess: () => invalidate([queryKeys.pricingTemplates]),
  });
}

export function useDeletePricingTemplate() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/pricing-templates/${id}`),
    onSuccess: () => invalidate([queryKeys.pricingTemplates]),
  });
}
