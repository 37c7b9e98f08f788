import { useSearchParams } from 'react-router';
import { Loading } from '@/components/loading';
import { useContract } from '../api/get-contract';
import { ContractEditor } from './contract-editor';

/** `/contracts/new` with `contract_id` (an existing contract) or `care_plan_id` (a new one). */
export default function ContractFormPage() {
  const [params] = useSearchParams();
  const contractId = params.get('contract_id');
  const carePlanId = params.get('care_plan_id');
  if (contractId) return <ExistingContract key={contractId} contractId={contractId} />;
  return <ContractEditor key={carePlanId ?? 'blank'} contract={null} carePlanId={carePlanId} />;
}

function ExistingContract({ contractId }: { contractId: string }) {
  const contract = useContract(contractId);
  if (contract.isPending) return <Loading text="Loading contract..." />;
  if (!contract.data) return <p className="text-sm text-muted-foreground">Failed to load contract</p>;
  return <ContractEditor contract={contract.data} carePlanId={contract.data.care_plan_proposal_id} />;
}
