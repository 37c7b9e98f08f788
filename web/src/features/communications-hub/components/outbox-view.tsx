import { useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { columnHelper } from '@/components/data-table/table-features';
import { Badge } from '@/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useOutbox, useOutboxMessage, type OutboxEntry } from '../api/hub';

const helper = columnHelper<OutboxEntry>();

const columns = helper.columns([
  helper.accessor('written_at', { header: 'Time', cell: (info) => formatDateTime(info.getValue()) }),
  helper.accessor('kind', { header: 'Type', cell: (info) => <Badge variant="secondary">{info.getValue() === 'sms' ? 'SMS' : 'Email'}</Badge> }),
  helper.accessor('to', { header: 'Recipient' }),
  helper.accessor('subject', { header: 'Subject', cell: (info) => info.getValue() ?? '—' }),
  helper.accessor('attachments', { header: 'Attachments', cell: (info) => info.getValue().join(', ') || 'None' }),
]);

function MessageDialog({ fileName, onClose }: { fileName: string; onClose: () => void }) {
  const message = useOutboxMessage(fileName);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{message.data?.subject ?? (message.data?.kind === 'sms' ? 'Text message' : 'Message')}</DialogTitle>
          <DialogDescription>What Carepath would have sent, as written to the outbox.</DialogDescription>
        </DialogHeader>
        {message.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
        {message.isError && <p className="text-sm text-destructive">{errorMessage(message.error, 'Failed to open the message')}</p>}
        {message.data && (
          <div className="flex flex-col gap-3 text-sm">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1" aria-label="Headers">
              {message.data.headers
                .filter((header) => ['x-envelope-to', 'from', 'to', 'cc', 'reply-to', 'subject', 'date'].includes(header.name.toLowerCase()))
                .map((header) => (
                  <div key={`${header.name}-${header.value}`} className="contents">
                    {/* The envelope names every recipient, blind copies included. */}
                    <dt className="font-medium">{header.name.toLowerCase() === 'x-envelope-to' ? 'Delivered to' : header.name}</dt>
                    <dd className="break-all">{header.value}</dd>
                  </div>
                ))}
              <dt className="font-medium">Attachments</dt>
              <dd>{message.data.attachments.join(', ') || 'None'}</dd>
            </dl>
            <pre className="max-h-96 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">{message.data.body}</pre>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** What the outbox adapters wrote, for agencies without a mail server or SMS account yet. */
export function OutboxView() {
  const outbox = useOutbox();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted-foreground">Emails and text messages written to the outbox instead of being sent (no mail server or SMS account set up). Open one to read it.</p>
      <DataTable
        columns={columns}
        data={outbox.data?.items ?? []}
        getRowId={(entry) => entry.file_name}
        caption="Outbox"
        emptyText="The outbox is empty."
        loading={outbox.isPending}
        onRowClick={(entry) => setOpen(entry.file_name)}
      />
      {open && <MessageDialog fileName={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
