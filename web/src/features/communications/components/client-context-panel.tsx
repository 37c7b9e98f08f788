import { Check, ChevronsLeft, ChevronsRight, Mail, MessageSquare, Phone, StickyNote, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { JourneyStep } from '@/api/types';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { useTimeline } from '../api/communications';
import type { ClientContact, ComposeKind } from './client-contact';
import { CommunicationEntry } from './communication-entry';
import { ComposeDialogs } from './compose-dialogs';

interface ClientContextPanelProps {
  contact: ClientContact;
  age: number | null;
  journey: readonly JourneyStep[];
  /** The intake the client profile is keyed by. */
  clientId: string;
}

/** Beside a client's forms: who the client is, where they are in the journey, the latest messages. */
export function ClientContextPanel({ contact, age, journey, clientId }: ClientContextPanelProps) {
  const [collapsed, setCollapsed] = useState(false);
  const [compose, setCompose] = useState<ComposeKind | null>(null);
  const timeline = useTimeline({ intake_id: clientId });
  const latest = (timeline.data?.items ?? []).slice(0, 5);

  if (collapsed) {
    return (
      <aside aria-label="Client context" className="flex w-12 shrink-0 flex-col items-center gap-2 rounded-lg border p-2">
        <Button variant="ghost" size="icon" aria-label="Expand client panel" onClick={() => setCollapsed(false)}>
          <ChevronsLeft aria-hidden="true" />
        </Button>
        <UserRound className="size-4 text-muted-foreground" aria-hidden="true" />
        <ComposeDialogs contact={contact} open={compose} onClose={() => setCompose(null)} />
      </aside>
    );
  }

  return (
    <aside aria-label="Client context" className="flex w-full shrink-0 flex-col gap-4 rounded-lg border p-4 lg:w-80">
      <div className="flex items-start justify-between gap-2">
        <div>
          <h2 className="font-semibold">{contact.clientName || 'New client'}</h2>
          {age !== null && <p className="text-sm text-muted-foreground">Age {age}</p>}
          {contact.phone && <p className="text-sm">{contact.phone}</p>}
          {contact.email && <p className="text-sm break-all">{contact.email}</p>}
        </div>
        <Button variant="ghost" size="icon" aria-label="Collapse client panel" onClick={() => setCollapsed(true)}>
          <ChevronsRight aria-hidden="true" />
        </Button>
      </div>
      <section aria-labelledby="journey-title">
        <h3 id="journey-title" className="mb-2 text-sm font-semibold">
          Client Journey
        </h3>
        <ol className="flex flex-col gap-1">
          {journey.map((step) => (
            <li key={step.stage}>
              <JourneyLink step={step} />
            </li>
          ))}
        </ol>
        <Link to={`/clients/${clientId}`} className="mt-2 inline-block text-sm text-primary underline-offset-4 hover:underline">
          View full profile
        </Link>
      </section>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="outline" size="sm" disabled={!contact.email} onClick={() => setCompose('email')}>
          <Mail aria-hidden="true" />
          Email
        </Button>
        <Button variant="outline" size="sm" disabled={!contact.phone} onClick={() => setCompose('sms')}>
          <MessageSquare aria-hidden="true" />
          SMS
        </Button>
        <Button variant="outline" size="sm" onClick={() => setCompose('note')}>
          <StickyNote aria-hidden="true" />
          Note
        </Button>
        <Button variant="outline" size="sm" disabled={!contact.phone} onClick={() => setCompose('call')}>
          <Phone aria-hidden="true" />
          Call
        </Button>
      </div>
      <section aria-labelledby="recent-comms-title">
        <div className="mb-2 flex items-center justify-between">
          <h3 id="recent-comms-title" className="text-sm font-semibold">
            Recent Communications
          </h3>
          <Link to={`/clients/${clientId}?tab=communications`} className="text-xs text-primary hover:underline">
            View all
          </Link>
        </div>
        {latest.length === 0 ? (
          <p className="text-sm text-muted-foreground">No communications yet.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {latest.map((entry) => (
              <CommunicationEntry key={entry.id} entry={entry} compact />
            ))}
          </ul>
        )}
      </section>
      <ComposeDialogs contact={contact} open={compose} onClose={() => setCompose(null)} />
    </aside>
  );
}

function JourneyLink({ step }: { step: JourneyStep }) {
  const content = (
    <>
      <span className={cn('flex size-5 items-center justify-center rounded-full border text-xs', step.complete && 'border-primary bg-primary text-primary-foreground')}>
        {step.complete ? <Check className="size-3" aria-hidden="true" /> : null}
      </span>
      <span>{step.label}</span>
      <span className="sr-only">{step.complete ? '(complete)' : '(not started)'}</span>
    </>
  );
  if (!step.enabled) {
    return <span className="flex items-center gap-2 rounded-md p-1.5 text-sm text-muted-foreground opacity-60" aria-disabled="true">{content}</span>;
  }
  return (
    <Link to={step.route} className="flex items-center gap-2 rounded-md p-1.5 text-sm hover:bg-muted">
      {content}
    </Link>
  );
}
