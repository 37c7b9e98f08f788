import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useContractChanged } from './invalidate-contracts';

/** A soft delete (admin): the contract moves to the trash and can be restored. */
export const deleteContract = (id: string) => api.delete<undefined>(`/api/contracts/${id}`);

export function useDeleteContract() {
  const changed = useContractChanged();
  return useMutation({ mutationFn: deleteContract, meta: { errorMessage: 'Failed to delete contract' }, onSuccess: () => changed() });
}
