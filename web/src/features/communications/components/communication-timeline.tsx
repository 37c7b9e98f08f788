import { Mail, MessageSquare, Phone, StickyNote } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { useRetrySend, useTimeline } from '../api/communications';
import type { Visibility } from '../api/types';
import type { ClientContact, ComposeKind } from './client-contact';
import { CommunicationEntry } from './communication-entry';
import { ComposeDialogs } from './compose-dialogs';
import { PendingAcceptanceBanner } from './pending-acceptance';

type Filter = 'all' | Visibility;

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'internal', label: 'Internal Only' },
  { value: 'client', label: 'Client-Facing' },
];

export function CommunicationTimeline({ contact, showQuickActions = true }: { contact: ClientContact; showQuickActions?: boolean }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [compose, setCompose] = useState<ComposeKind | null>(null);
  const timeline = useTimeline(contact.parents, filter === 'all' ? undefined : filter);
  const retry = useRetrySend();
  const entries = timeline.data?.items ?? [];

  const onRetry = (id: string) => {
    retry.mutate(id, { onSuccess: (entry) => (entry.status === 'failed' ? toast.error('Failed to send') : toast.success('Message sent again')) });
  };

  return (
    <div className="flex flex-col gap-3">
      <PendingAcceptanceBanner intakeId={contact.parents.intake_id} />
      {showQuickActions && (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => setCompose('email')} disabled={!contact.email}>
            <Mail aria-hidden="true" />
            Send Email
          </Button>
          <Button variant="outline" size="sm" onClick={() => setCompose('sms')} disabled={!contact.phone}>
            <MessageSquare aria-hidden="true" />
            Send SMS
          </Button>
          <Button variant="outline" size="sm" onClick={() => setCompose('note')}>
            <StickyNote aria-hidden="true" />
            Add Note
          </Button>
          <Button variant="outline" size="sm" onClick={() => setCompose('call')} disabled={!contact.phone}>
            <Phone aria-hidden="true" />
            Log Call
          </Button>
        </div>
      )}
      <div role="radiogroup" aria-label="Show communications" className="inline-flex w-fit rounded-md bg-muted p-1">
        {FILTERS.map((option) => (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={filter === option.value}
            onClick={() => setFilter(option.value)}
            className={`rounded-sm px-3 py-1 text-sm ${filter === option.value ? 'bg-background font-medium shadow-sm' : 'text-muted-foreground'}`}
          >
            {option.label}
          </button>
        ))}
      </div>
      {timeline.isPending ? (
        <p className="py-4 text-sm text-muted-foreground">Loading communications...</p>
      ) : entries.length === 0 ? (
        <p className="py-4 text-sm text-muted-foreground">No communications yet.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Communications">
          {entries.map((entry) => (
            <CommunicationEntry key={entry.id} entry={entry} onRetry={onRetry} retrying={retry.isPending} />
          ))}
        </ul>
      )}
      <ComposeDialogs contact={contact} open={compose} onClose={() => setCompose(null)} />
    </div>
  );
}
