import { FileSignature, Mail, Trash2 } from 'lucide-react';
import { DataTableRowActions } from '@/components/data-table/data-table-row-actions';
import { columnHelper } from '@/components/data-table/table-features';
import { RecordStatusBadge } from '@/components/status-badge';
import { ageText } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { relativeDays } from '@/lib/relative-time';
import type { CarePlan } from '../api/types';

export interface CarePlanRowHandlers {
  isAdmin: boolean;
  onGenerateContract: (row: CarePlan) => void;
  onEmail: (row: CarePlan) => void;
  onDelete: (row: CarePlan) => void;
}

const helper = columnHelper<CarePlan>();


export function carePlansColumns(handlers: CarePlanRowHandlers) {
  return helper.columns([
    helper.accessor('client_name', { header: 'Client Name', cell: (info) => <span className="font-medium">{info.getValue()}</span> }),
    helper.accessor('age', { header: 'Age', cell: (info) => ageText(info.getValue()) }),
    helper.display({ id: 'created', header: 'Created', cell: ({ row }) => relativeDays(row.original.created_at) }),
    helper.display({ id: 'services', header: 'Services', cell: ({ row }) => (row.original.service_labels.length > 0 ? row.original.service_labels.join(', ') : 'Not specified'), meta: { className: 'max-w-xs' } }),
    helper.accessor('weekly_cost', { header: 'Weekly Cost', cell: (info) => formatMoney(info.getValue()) }),
    helper.accessor('status', { header: 'Status', cell: (info) => <RecordStatusBadge status={info.getValue()} /> }),
    helper.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => {
        const plan = row.original;
        return (
          <DataTableRowActions
            rowLabel={plan.client_name}
            actions={[
              { label: 'Generate Contract', icon: <FileSignature className="size-4" aria-hidden="true" />, onSelect: () => handlers.onGenerateContract(plan), hidden: !plan.can_generate_contract },
              { label: 'Send Care Plan Email', icon: <Mail className="size-4" aria-hidden="true" />, onSelect: () => handlers.onEmail(plan) },
              { label: 'Delete', icon: <Trash2 className="size-4" aria-hidden="true" />, onSelect: () => handlers.onDelete(plan), hidden: !handlers.isAdmin, destructive: true },
            ]}
          />
        );
      },
    }),
  ]);
}
