import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCarePlanChanged } from './invalidate-care-plans';
import type { CarePlanSent, SendProposalBody } from './types';

/** Emails the proposal (its letter PDF attached); on success the plan becomes sent. */
export const sendProposal = ({ id, body }: { id: string; body: SendProposalBody }) => api.post<CarePlanSent>(`/api/care-plans/${id}/send`, body);

export function useSendProposal() {
  const changed = useCarePlanChanged();
  return useMutation({
    mutationFn: sendProposal,
    meta: { errorTitle: 'Send Failed', errorMessage: 'Failed to send email' },
    onSuccess: (sent) => changed(sent.care_plan),
  });
}
