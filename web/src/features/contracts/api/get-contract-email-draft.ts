import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { EmailDraft } from './types';

/** The contract email the send dialog starts with, written by the server. */
export const getContractEmailDraft = (id: string, signal?: AbortSignal) => api.get<EmailDraft>(`/api/contracts/${id}/email-draft`, undefined, signal);

export function contractEmailDraftQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.contractEmailDraft(id),
    queryFn: ({ signal }) => getContractEmailDraft(id, signal),
    // Read each time the dialog opens: Settings or the care plan may have changed.
    staleTime: 0,
    gcTime: 0,
    meta: { errorMessage: 'Failed to load contract' },
  });
}

export const useContractEmailDraft = (id: string) => useQuery(contractEmailDraftQueryOptions(id));
