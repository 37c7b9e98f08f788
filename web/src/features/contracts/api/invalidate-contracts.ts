import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Contract } from './types';

/** After a contract changed: its lists, its care plan, the client and the counts are stale. */
export function useContractChanged() {
  const queryClient = useQueryClient();
  return (contract?: Contract) => {
    if (contract) queryClient.setQueryData(queryKeys.contract(contract.id), contract);
    for (const root of [queryKeys.contracts, queryKeys.carePlans, queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.communications]) {
      void queryClient.invalidateQueries({ queryKey: root, refetchType: 'active' });
    }
  };
}
