import { Eye } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { columnHelper } from '@/components/data-table/table-features';
import { stopRowClick } from '@/components/data-table/data-table';
import { StageBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { ageText, formatDate } from '@/lib/format';
import { relativeDays } from '@/lib/relative-time';
import type { ClientRow } from '../api/types';
import { JourneyIndicator } from './journey-indicator';

const helper = columnHelper<ClientRow>();

export const clientsColumns = helper.columns([
  helper.accessor('client_full_name', {
    header: 'Client',
    cell: (info) => <span className="font-medium">{info.getValue()}</span>,
  }),
  helper.accessor('age', { header: 'Age', cell: (info) => ageText(info.getValue()) }),
  helper.display({
    id: 'stage',
    header: 'Current Stage',
    cell: ({ row }) => (
      <span className="flex flex-col items-start gap-0.5">
        <StageBadge stage={row.original.stage} overdue={row.original.pipeline.overdue} archived={row.original.archived} />
        {/* The derived status says where in the stage the client is (e.g. "Active Patient"). */}
        <span className="text-xs text-muted-foreground">{row.original.pipeline.label}</span>
      </span>
    ),
  }),
  helper.display({
    id: 'days',
    header: 'Days in Stage',
    cell: ({ row }) => (
      <span className="flex items-center gap-2">
        {row.original.pipeline.days_in_stage}
        {row.original.stage_alert && (
          <Badge variant="destructive" title="In this stage longer than Settings → Workflow allows">
            Stage alert
          </Badge>
        )}
      </span>
    ),
  }),
  helper.display({ id: 'next', header: 'Next Action', cell: ({ row }) => row.original.pipeline.next_action }),
  helper.accessor('owner_name', { header: 'Coordinator', cell: (info) => info.getValue() ?? 'Unassigned' }),
  helper.accessor('last_contact_date', { header: 'Last Contact', cell: (info) => <span title={formatDate(info.getValue())}>{relativeDays(info.getValue(), 'Never')}</span> }),
  helper.display({ id: 'journey', header: 'Journey', cell: ({ row }) => <JourneyIndicator done={row.original.journey_done} /> }),
  helper.display({
    id: 'view',
    header: () => <span className="sr-only">Actions</span>,
    cell: ({ row }) => (
      <Button asChild variant="outline" size="sm">
        <Link to={row.original.view_route} onClick={stopRowClick} aria-label={`View ${row.original.client_full_name}`}>
          <Eye aria-hidden="true" />
          View
        </Link>
      </Button>
    ),
  }),
]);
