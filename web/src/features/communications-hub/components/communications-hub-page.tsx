import { Bell, Mail, MessageSquare, Phone, RotateCw, StickyNote, type LucideIcon } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { profilesQueryOptions, useRetrySend } from '@/features/communications/api/communications';
import type { ClientContact, ComposeKind } from '@/features/communications/components/client-contact';
import { ComposeDialogs } from '@/features/communications/components/compose-dialogs';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { DataTableToolbar, ToolbarFilter, ToolbarSearch } from '@/components/data-table/data-table-toolbar';
import { PageHeader } from '@/components/page-header';
import { CommunicationStatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCursorPager } from '@/lib/cursor-pager';
import { formatDateTime } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useHub, type HubCommunication } from '../api/hub';
import { OutboxView } from './outbox-view';
import { UnmatchedView } from './unmatched-view';

const ICONS: Record<HubCommunication['communication_type'], LucideIcon> = {
  email: Mail,
  sms: MessageSquare,
  note: StickyNote,
  phone_log: Phone,
  system_event: Bell,
};
const LABELS: Record<HubCommunication['communication_type'], string> = {
  email: 'Email',
  sms: 'SMS',
  note: 'Note',
  phone_log: 'Phone Log',
  system_event: 'System Event',
};

const TYPE_OPTIONS = [
  { value: 'all', label: 'All Types' },
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'SMS' },
  { value: 'note', label: 'Note' },
  { value: 'system_event', label: 'System Event' },
  { value: 'phone_log', label: 'Phone Log' },
] as const;
const STATUS_OPTIONS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'sent', label: 'Sent' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
] as const;

const DIRECTION_OPTIONS = [
  { value: 'all', label: 'All Directions' },
  { value: 'inbound', label: 'Replies' },
  { value: 'outbound', label: 'Sent' },
  { value: 'internal', label: 'Internal' },
] as const;

/** No client chosen: the dialogs ask for the recipient. */
const NO_CLIENT: ClientContact = { parents: {}, clientName: '', email: '', phone: '' };

function HubItem({ entry }: { entry: HubCommunication }) {
  const retry = useRetrySend();
  const Icon = ICONS[entry.communication_type];
  const retryable = entry.status === 'failed' && (entry.communication_type === 'email' || entry.communication_type === 'sms');
  return (
    <li className="flex gap-3 rounded-md border p-3" aria-label={`${LABELS[entry.communication_type]}: ${entry.subject ?? ''}`}>
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-muted">
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">{LABELS[entry.communication_type]}</Badge>
          <span className="font-medium">{entry.client_name ?? 'No client'}</span>
          {entry.direction === 'inbound' && <Badge variant="outline">Inbound</Badge>}
          {entry.direction === 'inbound' && !entry.read_at && <Badge>Unread</Badge>}
          <CommunicationStatusBadge status={entry.status} />
        </div>
        {entry.subject && <p className="font-medium">{entry.subject}</p>}
        <p className="line-clamp-2 text-sm whitespace-pre-line text-muted-foreground">{entry.content}</p>
        <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
          <span>{formatDateTime(entry.created_at)}</span>
          {(entry.recipient_email ?? entry.recipient_phone) && <span>{entry.direction === 'inbound' ? 'From' : 'To'} {entry.recipient_email ?? entry.recipient_phone}</span>}
          {entry.failure_reason && <span className="text-destructive">{entry.failure_reason}</span>}
        </p>
      </div>
      {retryable && (
        <Button
          size="sm"
          variant="outline"
          disabled={retry.isPending}
          onClick={() =>
            retry.mutate(entry.id, {
              onSuccess: (sent) => (sent.status === 'failed' ? toast.error('Failed to send', { description: sent.failure_reason ?? undefined }) : toast.success('Sent successfully')),
            })
          }
        >
          <RotateCw aria-hidden="true" />
          Retry
        </Button>
      )}
    </li>
  );
}

function HubList() {
  const [search, setSearch] = useState('');
  const [owner, setOwner] = useState('');
  const [type, setType] = useState('all');
  const [status, setStatus] = useState('all');
  const [direction, setDirection] = useState('all');
  const q = useDebouncedValue(search.trim(), 300);
  const pager = useCursorPager();
  const { reset } = pager;
  useEffect(() => reset(), [q, owner, type, status, direction, reset]);
  const hub = useHub({ owner, type, status, direction, q, cursor: pager.cursor });
  const profiles = useQuery(profilesQueryOptions);
  const owners = [{ value: '', label: 'All Coordinators' }, { value: 'me', label: 'Mine' }, ...(profiles.data?.items ?? []).map((person) => ({ value: person.id, label: person.full_name }))];
  const items = hub.data?.items ?? [];
  return (
    <div className="flex flex-col gap-3">
      <DataTableToolbar>
        <ToolbarSearch id="hub-search" label="Search communications" value={search} onChange={setSearch} placeholder="Search communications..." />
        <ToolbarFilter id="hub-owner" label="Coordinator" value={owner} onChange={setOwner} options={owners} />
        <ToolbarFilter id="hub-type" label="Type" value={type} onChange={setType} options={TYPE_OPTIONS} />
        <ToolbarFilter id="hub-status" label="Status" value={status} onChange={setStatus} options={STATUS_OPTIONS} />
        <ToolbarFilter id="hub-direction" label="Direction" value={direction} onChange={setDirection} options={DIRECTION_OPTIONS} />
      </DataTableToolbar>
      {hub.isPending ? (
        <p className="text-sm text-muted-foreground">Loading...</p>
      ) : items.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">No communications found</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Communications">
          {items.map((entry) => (
            <HubItem key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
      <DataTablePagination pager={pager} nextCursor={hub.data?.next_cursor} shown={items.length} />
    </div>
  );
}

export default function CommunicationsHubPage() {
  const [compose, setCompose] = useState<ComposeKind | null>(null);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Communication Hub"
        description="Every email, text, call and note, across all clients."
        actions={
          <>
            <Button onClick={() => setCompose('email')}>
              <Mail aria-hidden="true" />
              Send Email
            </Button>
            <Button variant="outline" onClick={() => setCompose('sms')}>
              <MessageSquare aria-hidden="true" />
              Send SMS
            </Button>
            <Button variant="outline" onClick={() => setCompose('call')}>
              <Phone aria-hidden="true" />
              Log Call
            </Button>
          </>
        }
      />
      <Tabs defaultValue="all">
        <TabsList aria-label="Communication views">
          <TabsTrigger value="all">All Communications</TabsTrigger>
          <TabsTrigger value="unmatched">Unmatched Replies</TabsTrigger>
          <TabsTrigger value="outbox">Outbox</TabsTrigger>
        </TabsList>
        <TabsContent value="all">
          <HubList />
        </TabsContent>
        <TabsContent value="unmatched">
          <UnmatchedView />
        </TabsContent>
        <TabsContent value="outbox">
          <OutboxView />
        </TabsContent>
      </Tabs>
      <ComposeDialogs contact={NO_CLIENT} open={compose} onClose={() => setCompose(null)} />
    </div>
  );
}
