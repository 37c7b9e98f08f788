import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useContractChanged } from './invalidate-contracts';
import type { Contract, ContractBody, ContractUpdate } from './types';

export interface SaveContractVariables {
  existing: Pick<Contract, 'id' | 'version'> | null;
  carePlanId: string;
  /** The version of the care plan shown beside a new contract. */
  carePlanVersion: number;
  content: string;
}

export function saveContract({ existing, carePlanId, carePlanVersion, content }: SaveContractVariables): Promise<Contract> {
  if (existing) {
    const update: ContractUpdate = { version: existing.version, content };
    return api.put<Contract>(`/api/contracts/${existing.id}`, update);
  }
  const body: ContractBody = { care_plan_id: carePlanId, care_plan_version: carePlanVersion, content };
  return api.post<Contract>('/api/contracts', body);
}

export function useSaveContract() {
  const changed = useContractChanged();
  return useMutation({ mutationFn: saveContract, meta: { errorMessage: 'Failed to save contract' }, onSuccess: changed });
}
