import { Plus } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { ClientUrgency } from '@/api/types';
import { CountCard } from '@/components/count-card';
import { DataTable } from '@/components/data-table/data-table';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { DataTableToolbar, ToolbarExport, ToolbarFilter, ToolbarSearch } from '@/components/data-table/data-table-toolbar';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { profilesQueryOptions } from '@/features/communications/api/communications';
import { useCursorPager } from '@/lib/cursor-pager';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { clientsQueryFor, stageFromParam } from '../api/address';
import { clientsExportUrl, useClients } from '../api/get-clients';
import type { StageFilter } from '../api/types';
import { clientsColumns } from './clients-columns';

const STAGES: readonly { value: '' | StageFilter; label: string }[] = [
  { value: '', label: 'All Stages' },
  { value: 'intake', label: 'Intake' },
  { value: 'assessment', label: 'Assessment' },
  { value: 'care_plan', label: 'Care Plan' },
  { value: 'contract', label: 'Contract' },
  { value: 'archived', label: 'Archived / Declined' },
];

const URGENCIES: readonly { value: '' | ClientUrgency; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'overdue', label: 'Overdue (more than 5 days)' },
  { value: 'due_soon', label: 'Due Soon (4–5 days)' },
  { value: 'on_track', label: 'On Track (3 days or fewer)' },
];


export default function ClientsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const stage = stageFromParam(params.get('filter'));
  const owner = params.get('owner') ?? '';
  const profiles = useQuery(profilesQueryOptions);
  const owners = [
    { value: '', label: 'All Coordinators' },
    { value: 'me', label: 'Mine' },
    { value: 'unassigned', label: 'Unassigned' },
    ...(profiles.data?.items ?? []).map((person) => ({ value: person.id, label: person.full_name })),
  ];
  const [urgency, setUrgency] = useState<ClientUrgency | undefined>(undefined);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const pager = useCursorPager();
  const query = { stage, urgency, q: q || undefined };
  const clients = useClients(clientsQueryFor(params, { urgency, q: q || undefined, cursor: pager.cursor }));
  const counts = clients.data?.counts;
  const rows = clients.data?.items ?? [];

  const setStage = (value: StageFilter | undefined) => {
    pager.reset();
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set('filter', value);
      else next.delete('filter');
      return next;
    }, { replace: true });
  };
  const toggleStage = (value: StageFilter) => setStage(stage === value ? undefined : value);

  return (
    <>
      <PageHeader
        title="All Clients"
        description="Every client in the pipeline, from intake to contract."
        actions={
          <Button asChild>
            <Link to="/intake">
              <Plus aria-hidden="true" />
              New Intake
            </Link>
          </Button>
        }
      />
      <div className="mb-4 grid grid-cols-4 gap-1.5 sm:mb-6 sm:gap-3 lg:grid-cols-7" aria-label="Client counts" role="group">
        <CountCard compactOnPhone label="Total" count={counts?.total} onClick={() => setStage(undefined)} active={!stage} />
        <CountCard compactOnPhone label="Intake" count={counts?.intake} onClick={() => toggleStage('intake')} active={stage === 'intake'} />
        <CountCard compactOnPhone label="Assessment" count={counts?.assessment} onClick={() => toggleStage('assessment')} active={stage === 'assessment'} />
        <CountCard compactOnPhone label="Care Plan" count={counts?.care_plan} onClick={() => toggleStage('care_plan')} active={stage === 'care_plan'} />
        <CountCard compactOnPhone label="Contract" count={counts?.contract} onClick={() => toggleStage('contract')} active={stage === 'contract'} />
        <CountCard compactOnPhone
          label="Overdue"
          count={counts?.overdue}
          tone="destructive"
          onClick={() => {
            pager.reset();
            setUrgency(urgency === 'overdue' ? undefined : 'overdue');
          }}
          active={urgency === 'overdue'}
        />
        <CountCard compactOnPhone label="Archived" count={counts?.archived} onClick={() => toggleStage('archived')} active={stage === 'archived'} />
      </div>
      <DataTableToolbar>
        <ToolbarSearch
          id="clients-search"
          label="Search clients"
          placeholder="Search by client name, caller name or phone..."
          value={search}
          onChange={(value) => {
            pager.reset();
            setSearch(value);
          }}
        />
        <ToolbarFilter
          id="clients-owner"
          label="Coordinator"
          value={owner}
          onChange={(value) => {
            pager.reset();
            setParams((current) => {
              const next = new URLSearchParams(current);
              if (value) next.set('owner', value);
              else next.delete('owner');
              return next;
            }, { replace: true });
          }}
          options={owners}
        />
        <ToolbarFilter id="clients-stage" label="Stage" value={stage ?? ''} onChange={(value) => setStage(stageFromParam(value))} options={STAGES} />
        <ToolbarFilter
          id="clients-urgency"
          label="Urgency"
          value={urgency ?? ''}
          onChange={(value) => {
            pager.reset();
            setUrgency(URGENCIES.find((option) => option.value === value)?.value || undefined);
          }}
          options={URGENCIES}
        />
        <ToolbarExport href={clientsExportUrl(query)} empty={rows.length === 0} />
      </DataTableToolbar>
      <DataTable
        caption="Clients"
        columns={clientsColumns}
        data={rows}
        getRowId={(row) => row.id}
        loading={clients.isPending}
        emptyText="No clients found"
        onRowClick={(row) => void navigate(`/clients/${row.id}`)}
        rowClassName={(row) => (row.pipeline.overdue ? 'bg-destructive/5' : undefined)}
      />
      <DataTablePagination pager={pager} nextCursor={clients.data?.next_cursor} shown={rows.length} />
    </>
  );
}
