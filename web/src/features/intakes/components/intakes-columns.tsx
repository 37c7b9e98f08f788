import { CalendarPlus } from 'lucide-react';
import { Link } from 'react-router';
import type { IntakeSummary } from '@/api/types';
import { stopRowClick } from '@/components/data-table/data-table';
import { columnHelper } from '@/components/data-table/table-features';
import { PipelineBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { ageText, formatDate } from '@/lib/format';
import { relativeDays } from '@/lib/relative-time';

const helper = columnHelper<IntakeSummary>();

export const intakesColumns = helper.columns([
  helper.accessor('client_full_name', { header: 'Client Name', cell: (info) => <span className="font-medium">{info.getValue()}</span> }),
  helper.accessor('age', { header: 'Age', cell: (info) => ageText(info.getValue()) }),
  helper.display({ id: 'days', header: 'Days in Intake', cell: ({ row }) => row.original.pipeline.days_in_stage }),
  helper.display({
    id: 'caller',
    header: 'Caller',
    cell: ({ row }) => (
      <span className="flex flex-col">
        <span>{row.original.caller_name}</span>
        <span className="text-xs text-muted-foreground">{row.original.caller_phone}</span>
      </span>
    ),
  }),
  helper.accessor('services_required', { header: 'Services Required', cell: (info) => info.getValue().join(', ') || '—' }),
  helper.accessor('last_contact_date', { header: 'Last Contact', cell: (info) => <span title={formatDate(info.getValue())}>{relativeDays(info.getValue(), 'Never')}</span> }),
  helper.display({ id: 'status', header: 'Status', cell: ({ row }) => <PipelineBadge label={row.original.pipeline.label} overdue={row.original.pipeline.overdue} /> }),
  helper.display({
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    cell: ({ row }) => (
      <Button asChild size="sm" variant="outline">
        <Link to={`/assessments/new?intake_id=${row.original.id}`} onClick={stopRowClick} aria-label={`Schedule Assessment for ${row.original.client_full_name}`}>
          <CalendarPlus aria-hidden="true" />
          Schedule Assessment
        </Link>
      </Button>
    ),
  }),
]);
