import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useContractChanged } from './invalidate-contracts';
import type { Contract } from './types';

export const signContract = (id: string) => api.post<Contract>(`/api/contracts/${id}/sign`);

export function useSignContract() {
  const changed = useContractChanged();
  return useMutation({ mutationFn: signContract, meta: { errorMessage: 'Failed to mark contract as signed' }, onSuccess: changed });
}
