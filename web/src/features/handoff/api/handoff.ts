import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, STALE_ROOTS, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type StartOfCare = Schemas['StartOfCare'];
export type StartOfCareItem = Schemas['StartOfCareItem'];
export type StartOfCareItemInput = Schemas['StartOfCareItemInput'];

export function startOfCareQueryOptions(intakeId: string) {
  return queryOptions({
    queryKey: queryKeys.startOfCare(intakeId),
    queryFn: ({ signal }) => api.get<StartOfCare>(`/api/clients/${encodeURIComponent(intakeId)}/start-of-care`, undefined, signal),
    meta: { errorMessage: 'Failed to load the start-of-care checklist' },
  });
}

/** A signed client's checklist; only asked for once the profile says the contract is signed. */
export function useStartOfCare(intakeId: string, signed: boolean) {
  return useQuery({ ...startOfCareQueryOptions(intakeId), enabled: signed && Boolean(intakeId) });
}

/** Ticks or unticks one item; the answer is the whole checklist as stored. */
export function useSetStartOfCareItem(intakeId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ itemId, input }: { itemId: string; input: StartOfCareItemInput }) =>
      api.put<StartOfCare>(`/api/clients/${encodeURIComponent(intakeId)}/start-of-care/${encodeURIComponent(itemId)}`, input),
    onSettled: () => invalidate(STALE_ROOTS.start_of_care_item),
  });
}

/** The hand-off for the scheduling system: one client's record as CSV or JSON. */
export function handoffUrl(intakeId: string, format: 'csv' | 'json'): string {
  const base = `/api/clients/${encodeURIComponent(intakeId)}/handoff`;
  return format === 'csv' ? `${base}.csv` : base;
}
