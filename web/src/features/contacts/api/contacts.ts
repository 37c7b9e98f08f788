import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { Contact, ContactInput, ContactList } from './types';

export function contactsQueryOptions(intakeId: string) {
  return queryOptions({
    queryKey: queryKeys.contacts(intakeId),
    queryFn: ({ signal }) => api.get<ContactList>(`/api/intakes/${intakeId}/contacts`, undefined, signal),
    meta: { errorMessage: 'Failed to load contacts' },
  });
}

export function useContacts(intakeId: string | null) {
  return useQuery({ ...contactsQueryOptions(intakeId ?? ''), enabled: Boolean(intakeId) });
}

export function useSaveContact(intakeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ existing, input }: { existing: Contact | null; input: ContactInput }) =>
      existing ? api.put<Contact>(`/api/contacts/${existing.id}`, { version: existing.version, ...input }) : api.post<Contact>(`/api/intakes/${intakeId}/contacts`, input),
    meta: { errorMessage: 'Failed to save contact' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.contacts(intakeId) }),
  });
}

export function useDeleteContact(intakeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`/api/contacts/${id}`),
    meta: { errorMessage: 'Failed to delete contact' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.contacts(intakeId) }),
  });
}
