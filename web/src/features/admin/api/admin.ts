import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type AdminUserRow = Schemas['User'];
export type TrashItem = Schemas['TrashItem'];

export const adminUsersQueryOptions = queryOptions({
  queryKey: queryKeys.adminUsers,
  queryFn: ({ signal }) => api.get<{ items: AdminUserRow[] }>('/api/admin/users', undefined, signal),
});

export const trashQueryOptions = queryOptions({
  queryKey: queryKeys.trash,
  queryFn: ({ signal }) => api.get<{ items: TrashItem[] }>('/api/admin/trash', undefined, signal),
});

export function useAdminUsers() {
  return useQuery(adminUsersQueryOptions);
}

export function useTrash() {
  return useQuery(trashQueryOptions);
}

function useAdminMutation<TVariables>(mutationFn: (variables: TVariables) => Promise<unknown>) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn,
    onSuccess: () => invalidate([queryKeys.admin]),
  });
}

export function useInviteUser() {
  return useAdminMutation((body: { email: string; is_admin: boolean }) => api.post('/api/admin/invitations', body));
}

export function useSetAdmin() {
  return useAdminMutation(({ id, is_admin }: { id: string; is_admin: boolean }) => api.put(`/api/admin/users/${id}/admin`, { is_admin }));
}

/** Sets a user's mobile for texts on urgent updates; the version guards a stale page. */
export function useSetPhone() {
  return useAdminMutation(({ id, phone, version }: { id: string; phone: string; version: number }) => api.put(`/api/admin/users/${id}/phone`, { phone, version }));
}

export function useDisableUser() {
  return useAdminMutation((id: string) => api.post(`/api/admin/users/${id}/disable`));
}

export function useEnableUser() {
  return useAdminMutation((id: string) => api.post(`/api/admin/users/${id}/enable`));
}

/** Removes a user's second factor and recovery codes (they lost their phone). */
export function useResetSecondFactor() {
  return useAdminMutation((id: string) => api.post(`/api/admin/users/${id}/reset-second-factor`));
}

const RESTORE_PATH: Record<string, string> = {
  intake: 'intakes',
  assessment: 'assessments',
  care_plan: 'care-plans',
  contract: 'contracts',
};

/** Restores a soft-deleted record through its own route; every list refreshes. */
export function useRestore() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (item: TrashItem) => api.post(`/api/${RESTORE_PATH[item.kind] ?? item.kind}/${item.id}/restore`),
    onSuccess: () => invalidate('everything'),
  });
}
