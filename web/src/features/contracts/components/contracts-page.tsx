import { FileSignature, Settings } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CountCard } from '@/components/count-card';
import { DataTable } from '@/components/data-table/data-table';
import { DataTableToolbar, ToolbarExport, ToolbarFilter, ToolbarSearch } from '@/components/data-table/data-table-toolbar';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useMe } from '@/features/auth/api/auth';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDeleteContract } from '../api/delete-contract';
import { contractsExportUrl, useContracts } from '../api/get-contracts';
import { useSignContract } from '../api/sign-contract';
import type { Contract, ContractFilter } from '../api/types';
import { CONTRACT_STATUS_LABELS } from '../contract-status';
import { contractsColumns } from './contracts-columns';

const FILTERS: readonly { value: '' | ContractFilter; label: string }[] = [
  { value: '', label: 'All Contracts' },
  ...(['draft', 'sent', 'signed'] as const).map((value) => ({ value, label: CONTRACT_STATUS_LABELS[value] })),
];

type StatCard = 'awaiting' | 'sent-week' | 'signed-month';

export default function ContractsPage() {
  const navigate = useNavigate();
  const me = useMe();
  const [params] = useSearchParams();
  // The dashboard's Awaiting Signatures card links here with ?status=sent.
  const preset = FILTERS.find((option) => option.value !== '' && option.value === params.get('status'))?.value || undefined;
  const [status, setStatus] = useState<ContractFilter | undefined>(preset);
  const [card, setCard] = useState<StatCard | null>(preset === 'sent' ? 'awaiting' : null);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<Contract | null>(null);
  const q = useDebouncedValue(search.trim(), 300);
  const query = { status, q: q || undefined };
  const contracts = useContracts(query);
  const sign = useSignContract();
  const remove = useDeleteContract();
  const rows = contracts.data?.items ?? [];
  const stats = contracts.data?.stats;

  // A stat card toggles the status filter it counts (sent for the first two, signed for the last).
  const toggle = (next: StatCard, filter: ContractFilter) => {
    if (card === next) {
      setCard(null);
      setStatus(undefined);
    } else {
      setCard(next);
      setStatus(filter);
    }
  };

  const columns = contractsColumns({
    isAdmin: me.data?.is_admin === true,
    onView: (contract) => void navigate(`/contracts/new?contract_id=${contract.id}`),
    onSign: (contract) => sign.mutate(contract.id, { onSuccess: () => toast.success('Contract Signed', { description: `${contract.client_name} is now an active client.` }) }),
    onDelete: setDeleting,
  });

  return (
    <>
      <PageHeader
        title="Contracts"
        description="Service agreements generated from sent or approved care plans."
        actions={
          <>
            <Button asChild variant="outline">
              <Link to="/contracts/settings">
                <Settings aria-hidden="true" />
                Template Settings
              </Link>
            </Button>
            <Button asChild>
              <Link to="/contracts/new">
                <FileSignature aria-hidden="true" />
                Generate Contract
              </Link>
            </Button>
          </>
        }
      />
      <div className="mb-6 grid gap-3 sm:grid-cols-3">
        <CountCard label="Awaiting Signatures" count={stats?.awaiting_signatures} onClick={() => toggle('awaiting', 'sent')} active={card === 'awaiting'} />
        <CountCard label="Sent This Week" count={stats?.sent_this_week} onClick={() => toggle('sent-week', 'sent')} active={card === 'sent-week'} />
        <CountCard label="Signed This Month" count={stats?.signed_this_month} onClick={() => toggle('signed-month', 'signed')} active={card === 'signed-month'} />
      </div>
      <DataTableToolbar>
        <ToolbarSearch id="contracts-search" label="Search contracts" placeholder="Search by client name..." value={search} onChange={setSearch} />
        <ToolbarFilter
          id="contracts-status"
          label="Status"
          value={status ?? ''}
          onChange={(value) => {
            setCard(null);
            setStatus(FILTERS.find((option) => option.value === value)?.value || undefined);
          }}
          options={FILTERS}
        />
        <ToolbarExport href={contractsExportUrl(query)} empty={rows.length === 0} />
      </DataTableToolbar>
      <DataTable
        caption="Contracts"
        columns={columns}
        data={rows}
        getRowId={(row) => row.id}
        loading={contracts.isPending}
        emptyText="No contracts yet. Generate your first contract from an approved care plan."
        onRowClick={(contract) => void navigate(`/contracts/new?contract_id=${contract.id}`)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete contract?"
        description={`This will move the contract for ${deleting?.client_name ?? ''} to the trash. An administrator can restore it.`}
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => toast.success('Contract Deleted', { description: 'The contract was moved to trash.' }),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </>
  );
}
