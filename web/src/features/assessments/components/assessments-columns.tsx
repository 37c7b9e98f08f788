import { FileText, Play, Sparkles, Trash2 } from 'lucide-react';
import { columnHelper } from '@/components/data-table/table-features';
import { DataTableRowActions } from '@/components/data-table/data-table-row-actions';
import { RecordStatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { ageText, formatDate } from '@/lib/format';
import type { Assessment } from '../api/types';

export interface AssessmentRowHandlers {
  isAdmin: boolean;
  onOpen: (row: Assessment) => void;
  onViewCarePlan: (row: Assessment) => void;
  onGenerateCarePlan: (row: Assessment) => void;
  onDelete: (row: Assessment) => void;
}

const helper = columnHelper<Assessment>();

export function assessmentsColumns(handlers: AssessmentRowHandlers) {
  return helper.columns([
    helper.accessor('client_name', { header: 'Client Name', cell: (info) => <span className="font-medium">{info.getValue()}</span> }),
    helper.accessor('age', { header: 'Age', cell: (info) => ageText(info.getValue()) }),
    helper.display({ id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.assessment_date ?? row.original.created_at) }),
    helper.accessor('days_in_stage', { header: 'Days in Stage' }),
    helper.accessor('coordinator_name', { header: 'Coordinator', cell: (info) => info.getValue() || '—' }),
    helper.display({
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <span className="flex flex-wrap gap-1">
          <RecordStatusBadge status={row.original.status} />
          {row.original.care_plan_id && <Badge variant="outline">Care Plan</Badge>}
        </span>
      ),
    }),
    helper.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => {
        const assessment = row.original;
        const hasPlan = Boolean(assessment.care_plan_id);
        const canGenerate = assessment.status === 'completed' && !hasPlan;
        return (
          <DataTableRowActions
            rowLabel={assessment.client_name}
            actions={[
              { label: 'View Care Plan', icon: <FileText className="size-4" aria-hidden="true" />, onSelect: () => handlers.onViewCarePlan(assessment), hidden: !hasPlan },
              { label: 'Generate Care Plan', icon: <Sparkles className="size-4" aria-hidden="true" />, onSelect: () => handlers.onGenerateCarePlan(assessment), hidden: !canGenerate },
              { label: 'Continue', icon: <Play className="size-4" aria-hidden="true" />, onSelect: () => handlers.onOpen(assessment), hidden: hasPlan || canGenerate },
              { label: 'Delete', icon: <Trash2 className="size-4" aria-hidden="true" />, onSelect: () => handlers.onDelete(assessment), hidden: !handlers.isAdmin, destructive: true },
            ]}
          />
        );
      },
    }),
  ]);
}
