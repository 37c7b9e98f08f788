import { useQueryClient } from '@tanstack/react-query';
import { queryKeys, STALE_ROOTS, useInvalidate } from '@/api/query-keys';
import type { Contract } from './types';

/** After a contract changed: its lists, its care plan, the client and the counts are stale. */
export function useContractChanged() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return (contract?: Contract) => {
    if (contract) queryClient.setQueryData(queryKeys.contract(contract.id), contract);
    void invalidate(STALE_ROOTS.contract);
  };
}
