import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataTable } from '@/components/data-table/data-table';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { DataTableToolbar, ToolbarExport, ToolbarSearch } from '@/components/data-table/data-table-toolbar';
import { PageHeader } from '@/components/page-header';
import { useMe } from '@/features/auth/api/auth';
import { useCursorPager } from '@/lib/cursor-pager';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDeleteCarePlan } from '../api/delete-care-plan';
import { carePlansExportUrl, useCarePlans } from '../api/get-care-plans';
import type { CarePlan } from '../api/types';
import { carePlansColumns } from './care-plans-columns';
import { ProposalEmailDialog } from './proposal-email-dialog';

export default function CarePlansPage() {
  const navigate = useNavigate();
  const me = useMe();
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<CarePlan | null>(null);
  const [emailing, setEmailing] = useState<CarePlan | null>(null);
  const q = useDebouncedValue(search.trim(), 300);
  const pager = useCursorPager();
  const carePlans = useCarePlans({ q: q || undefined, cursor: pager.cursor });
  const remove = useDeleteCarePlan();
  const rows = carePlans.data?.items ?? [];

  const columns = carePlansColumns({
    isAdmin: me.data?.is_admin === true,
    onGenerateContract: (plan) => void navigate(plan.contract_id ? `/contracts/new?contract_id=${plan.contract_id}` : `/contracts/new?care_plan_id=${plan.id}`),
    onEmail: setEmailing,
    onDelete: setDeleting,
  });

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
          <li aria-current="page">Care Plans</li>
        </ol>
      </nav>
      <PageHeader title="Care Plans" description="Care plan proposals: services, weekly schedule and cost for each family." />
      <DataTableToolbar>
        <ToolbarSearch
          id="care-plans-search"
          label="Search care plans"
          placeholder="Search by client name..."
          value={search}
          onChange={(value) => {
            pager.reset();
            setSearch(value);
          }}
        />
        <ToolbarExport href={carePlansExportUrl({ q: q || undefined })} empty={rows.length === 0} />
      </DataTableToolbar>
      <DataTable
        caption="Care plans"
        columns={columns}
        data={rows}
        getRowId={(row) => row.id}
        loading={carePlans.isPending}
        emptyText="No care plans yet. Create your first care plan from an assessment."
        onRowClick={(plan) => void navigate(`/care-plans/new?care_plan_id=${plan.id}`)}
      />
      <DataTablePagination pager={pager} nextCursor={carePlans.data?.next_cursor} shown={rows.length} />
      {emailing && <ProposalEmailDialog plan={emailing} open onOpenChange={(open) => !open && setEmailing(null)} onPlanChanged={() => undefined} variant="list" />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete care plan?"
        description={`This will move the care plan for ${deleting?.client_name ?? ''} to the trash. An administrator can restore it.`}
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => toast.success('Care Plan Deleted', { description: 'moved to trash' }),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </>
  );
}
