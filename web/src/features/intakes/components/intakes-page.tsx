import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CountCard } from '@/components/count-card';
import { DataTable } from '@/components/data-table/data-table';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { DataTableToolbar, ToolbarFilter } from '@/components/data-table/data-table-toolbar';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useCursorPager } from '@/lib/cursor-pager';
import { useIntakes } from '../api/get-intakes';
import type { IntakeUrgency } from '../api/types';
import { intakesColumns } from './intakes-columns';

const URGENCIES: readonly { value: '' | IntakeUrgency; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'new', label: 'New (3 days or fewer)' },
  { value: 'attention', label: 'Attention (4-5 days)' },
  { value: 'urgent', label: 'Urgent (more than 5 days)' },
];

export default function IntakesPage() {
  const navigate = useNavigate();
  const [urgency, setUrgency] = useState<IntakeUrgency | undefined>(undefined);
  const pager = useCursorPager();
  const intakes = useIntakes(urgency, pager.cursor);
  const summary = intakes.data?.summary;
  const rows = intakes.data?.items ?? [];
  const choose = (value: IntakeUrgency | undefined) => {
    pager.reset();
    setUrgency(value);
  };
  const toggle = (value: IntakeUrgency) => choose(urgency === value ? undefined : value);

  return (
    <>
      <PageHeader
        title="Intakes"
        description="Leads still at the intake stage."
        actions={
          <Button asChild>
            <Link to="/intake">
              <Plus aria-hidden="true" />
              New Intake
            </Link>
          </Button>
        }
      />
      <div className="mb-6 grid gap-3 sm:grid-cols-3">
        <CountCard label="New" count={summary?.new} onClick={() => toggle('new')} active={urgency === 'new'} />
        <CountCard label="Attention" count={summary?.attention} tone="warning" onClick={() => toggle('attention')} active={urgency === 'attention'} />
        <CountCard label="Urgent" count={summary?.urgent} tone="destructive" onClick={() => toggle('urgent')} active={urgency === 'urgent'} />
      </div>
      <DataTableToolbar>
        <ToolbarFilter
          id="intakes-urgency"
          label="Urgency"
          value={urgency ?? ''}
          onChange={(value) => choose(URGENCIES.find((option) => option.value === value)?.value || undefined)}
          options={URGENCIES}
        />
      </DataTableToolbar>
      <DataTable
        caption="Intakes"
        columns={intakesColumns}
        data={rows}
        getRowId={(row) => row.id}
        loading={intakes.isPending}
        emptyText="No intakes found"
        onRowClick={(row) => void navigate(`/clients/${row.id}`)}
      />
      <DataTablePagination pager={pager} nextCursor={intakes.data?.next_cursor} shown={rows.length} />
    </>
  );
}
