import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type PricingTemplate = Schemas['PricingTemplate'];
export type PricingTemplateInput = Schemas['PricingTemplateInput'];
export type HolidayPolicy = Schemas['HolidayPolicy'];

export const pricingTemplatesQueryOptions = queryOptions({
  queryKey: ['pricing-templates'],
  queryFn: ({ signal }) => api.get<{ items: PricingTemplate[] }>('/api/pricing-templates', undefined, signal),
});

export const holidayPolicyQueryOptions = queryOptions({
  queryKey: ['holiday-policy'],
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ existing, template }: { existing?: PricingTemplate; template: PricingTemplateInput }) =>
      existing
        ? api.put<PricingTemplate>(`/api/pricing-templates/${existing.id}`, { version: existing.version, template })
        : api.post<PricingTemplate>('/api/pricing-templates', template),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pricingTemplatesQueryOptions.queryKey }),
  });
}

export function useDeletePricingTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/pricing-templates/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pricingTemplatesQueryOptions.queryKey }),
  });
}
