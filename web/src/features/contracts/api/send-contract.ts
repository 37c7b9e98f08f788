import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useContractChanged } from './invalidate-contracts';
import type { ContractSent, SendContractBody } from './types';

/** Emails the contract (its PDF attached) to the family contact; on success it becomes sent. */
export const sendContract = ({ id, body }: { id: string; body: SendContractBody }) => api.post<ContractSent>(`/api/contracts/${id}/send`, body);

export function useSendContract() {
  const changed = useContractChanged();
  return useMutation({ mutationFn: sendContract, meta: { errorMessage: 'Failed to send contract' }, onSuccess: (sent) => changed(sent.contract) });
}
