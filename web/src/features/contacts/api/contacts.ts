import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import { OFFLINE_COPY_NETWORK_MODE } from '@/lib/query-client';
import type { Contact, ContactInput, ContactList } from './types';

export function contactsQueryOptions(intakeId: string) {
  return queryOptions({
    queryKey: queryKeys.contacts(intakeId),
    queryFn: ({ signal }) => api.get<ContactList>(`/api/intakes/${intakeId}/contacts`, undefined, signal),
    meta: { errorMessage: 'Failed to load contacts' },
    ...OFFLINE_COPY_NETWORK_MODE,
  });
}

export function useContacts(intakeId: string | null) {
  return useQuery({ ...contactsQueryOptions(intakeId ?? ''), enabled: Boolean(intakeId) });
}

export function useSaveContact(intakeId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ existing, input }: { existing: Contact | null; input: ContactInput }) =>
      existing ? api.put<Contact>(`/api/contacts/${existing.id}`, { version: existing.version, ...input }) : api.post<Contact>(`/api/intakes/${intakeId}/contacts`, input),
    meta: { errorMessage: 'Failed to save contact' },
    onSettled: () => invalidate([queryKeys.contacts(intakeId)]),
  });
}

export function useDeleteContact(intakeId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`/api/contacts/${id}`),
    meta: { errorMessage: 'Failed to delete contact' },
    onSettled: () => invalidate([queryKeys.contacts(intakeId)]),
  });
}
