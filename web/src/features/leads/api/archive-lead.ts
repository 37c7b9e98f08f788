import { useMutation } from '@tanstack/react-query';
import { STALE_ROOTS, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

/** The two ways a lead is lost, as the spec's archived statuses name them. */
export type ArchiveStatus = Schemas['ArchiveStatus'];
export type ArchiveLeadBody = Schemas['ArchiveInput'];
export type ClientProfile = Schemas['ClientProfile'];

export const archiveLead = ({ intakeId, body }: { intakeId: string; body: ArchiveLeadBody }) => api.post<ClientProfile>(`/api/clients/${intakeId}/archive`, body);
export const reopenLead = (intakeId: string) => api.post<ClientProfile>(`/api/clients/${intakeId}/reopen`);

function useLeadChanged() {
  const invalidate = useInvalidate();
  return () => void invalidate(STALE_ROOTS.lead);
}

export function useArchiveLead() {
  const changed = useLeadChanged();
  return useMutation({ mutationFn: archiveLead, meta: { errorMessage: 'Failed to archive the client' }, onSuccess: changed });
}

export function useReopenLead() {
  const changed = useLeadChanged();
  return useMutation({ mutationFn: reopenLead, meta: { errorMessage: 'Failed to reopen the client' }, onSuccess: changed });
}
