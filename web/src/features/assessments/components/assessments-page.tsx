import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDialog, softDeleteText } from '@/components/confirm-dialog';
import { CountCard } from '@/components/count-card';
import { DataTable } from '@/components/data-table/data-table';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { DataTableToolbar, ToolbarExport, ToolbarFilter, ToolbarSearch } from '@/components/data-table/data-table-toolbar';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useMe } from '@/features/auth/api/auth';
import { useCursorPager } from '@/lib/cursor-pager';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDeleteAssessment } from '../api/delete-assessment';
import { useGenerateCarePlan } from '../api/generate-care-plan';
import { assessmentsExportUrl, useAssessments } from '../api/get-assessments';
import type { Assessment, AssessmentFilter } from '../api/types';
import { assessmentsColumns } from './assessments-columns';
import { AwaitingAssessmentCard } from './awaiting-assessment-card';

const FILTERS: readonly { value: '' | AssessmentFilter; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'draft', label: 'Pending/Draft' },
  { value: 'completed', label: 'Completed' },
  { value: 'care_plan_generated', label: 'Care Plans Generated' },
];

export default function AssessmentsPage() {
  const navigate = useNavigate();
  const me = useMe();
  const [status, setStatus] = useState<AssessmentFilter | undefined>(undefined);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<Assessment | null>(null);
  const q = useDebouncedValue(search.trim(), 300);
  const pager = useCursorPager();
  const query = { status, q: q || undefined };
  const assessments = useAssessments({ ...query, cursor: pager.cursor });
  const generate = useGenerateCarePlan();
  const remove = useDeleteAssessment();
  const stats = assessments.data?.stats;
  const rows = assessments.data?.items ?? [];

  const choose = (value: AssessmentFilter | undefined) => {
    pager.reset();
    setStatus((current) => (current === value ? undefined : value));
  };
  const open = (row: Assessment) => void navigate(`/assessments/new?assessment_id=${row.id}`);
  const columns = assessmentsColumns({
    isAdmin: me.data?.is_admin === true,
    onOpen: open,
    onViewCarePlan: (row) => void navigate(`/care-plans/new?care_plan_id=${row.care_plan_id ?? ''}`),
    onGenerateCarePlan: (row) =>
      generate.mutate(row.id, {
        onSuccess: (plan) => {
          toast.success('Care Plan Created');
          void navigate(`/care-plans/new?care_plan_id=${plan.id}`);
        },
      }),
    onDelete: setDeleting,
  });
  const statusLabel = FILTERS.find((option) => option.value === status)?.label ?? '';

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-muted-foreground">
        <ol className="flex gap-1">
          <li>
            <Link to="/" className="hover:underline">
              Dashboard
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page">Assessments</li>
        </ol>
      </nav>
      <PageHeader
        title="Assessments"
        description="Non-medical assessments and the care plans generated from them."
        actions={
          <Button asChild>
            <Link to="/assessments/new">
              <Plus aria-hidden="true" />
              New Assessment
            </Link>
          </Button>
        }
      />
      <AwaitingAssessmentCard />
      <div className="mb-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <CountCard label="Pending/Draft" count={stats?.pending} onClick={() => choose('draft')} active={status === 'draft'} />
        <CountCard label="Completed" count={stats?.completed} onClick={() => choose('completed')} active={status === 'completed'} />
        <CountCard label="Care Plans Generated" count={stats?.care_plans_generated} onClick={() => choose('care_plan_generated')} active={status === 'care_plan_generated'} />
        <CountCard label="Total" count={stats?.total} onClick={() => choose(undefined)} active={!status} />
      </div>
      <DataTableToolbar>
        <ToolbarSearch
          id="assessments-search"
          label="Search assessments"
          placeholder="Search by client name..."
          value={search}
          onChange={(value) => {
            pager.reset();
            setSearch(value);
          }}
        />
        <ToolbarFilter
          id="assessments-status"
          label="Status"
          value={status ?? ''}
          onChange={(value) => {
            pager.reset();
            setStatus(FILTERS.find((option) => option.value === value)?.value || undefined);
          }}
          options={FILTERS}
        />
        <ToolbarExport href={assessmentsExportUrl(query)} empty={rows.length === 0} />
      </DataTableToolbar>
      <DataTable
        caption="Assessments"
        columns={columns}
        data={rows}
        getRowId={(row) => row.id}
        loading={assessments.isPending}
        emptyText={status ? `No assessments with status: ${statusLabel}` : 'No assessments yet. Create your first one!'}
        onRowClick={open}
      />
      <DataTablePagination pager={pager} nextCursor={assessments.data?.next_cursor} shown={rows.length} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete assessment?"
        description={softDeleteText(deleting?.client_name ?? '')}
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => toast.success('Assessment Deleted', { description: 'moved to trash' }),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </>
  );
}
