import { Eye, FileCheck2, Trash2 } from 'lucide-react';
import { stopRowClick } from '@/components/data-table/data-table';
import { DataTableRowActions } from '@/components/data-table/data-table-row-actions';
import { columnHelper } from '@/components/data-table/table-features';
import { RecordStatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/lib/format';
import type { Contract } from '../api/types';
import { contractStatusLabel } from '../contract-status';

export interface ContractRowHandlers {
  isAdmin: boolean;
  onView: (row: Contract) => void;
  onSign: (row: Contract) => void;
  onDelete: (row: Contract) => void;
}

const helper = columnHelper<Contract>();

export function contractsColumns(handlers: ContractRowHandlers) {
  return helper.columns([
    helper.accessor('client_name', { header: 'Client Name', cell: (info) => <span className="font-medium">{info.getValue()}</span> }),
    helper.accessor('days_in_stage', { header: 'Days in Stage' }),
    helper.accessor('created_at', { header: 'Created', cell: (info) => formatDate(info.getValue()) }),
    helper.accessor('sent_at', { header: 'Sent', cell: (info) => formatDate(info.getValue(), '—') }),
    helper.accessor('signed_at', { header: 'Signed', cell: (info) => formatDate(info.getValue(), '—') }),
    helper.accessor('status', { header: 'Status', cell: (info) => <RecordStatusBadge status={info.getValue()} label={contractStatusLabel(info.getValue())} /> }),
    helper.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => {
        const contract = row.original;
        return (
          <div className="flex items-center gap-1" onClick={stopRowClick} onKeyDown={stopRowClick} role="presentation">
            {contract.status === 'sent' && (
              <Button size="sm" variant="outline" onClick={() => handlers.onSign(contract)}>
                <FileCheck2 aria-hidden="true" />
                Mark as Signed
              </Button>
            )}
            <Button size="sm" variant="ghost" onClick={() => handlers.onView(contract)} aria-label={`View contract for ${contract.client_name}`}>
              <Eye aria-hidden="true" />
              View
            </Button>
            {handlers.isAdmin && (
              <DataTableRowActions
                rowLabel={contract.client_name}
                actions={[{ label: 'Delete', icon: <Trash2 className="size-4" aria-hidden="true" />, onSelect: () => handlers.onDelete(contract), destructive: true }]}
              />
            )}
          </div>
        );
      },
    }),
  ]);
}
