import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type Checklist = Schemas['Checklist'];
export type CheckItem = Schemas['CheckItem'];

export const getChecklist = (signal?: AbortSignal) => api.get<Checklist>('/api/setup/checklist', undefined, signal);

export const checklistQueryOptions = queryOptions({
  queryKey: queryKeys.checklist,
  queryFn: ({ signal }) => getChecklist(signal),
  meta: { silent: true },
});

/** The setup checklist (administrators only: staff never ask). */
export function useChecklist(enabled: boolean) {
  return useQuery({ ...checklistQueryOptions, enabled });
}
