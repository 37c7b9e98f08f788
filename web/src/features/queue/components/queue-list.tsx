import { AlarmClock, Check, Phone } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LogCallDialog } from '@/features/communications/components/log-call-dialog';
import { useMarkDone, type QueueItem } from '../api/queue';
import { SnoozeDialog } from './snooze-dialog';

/** A queue's rows in the server's order (most late first), each with its next action. */
export function QueueList({ items, emptyText }: { items: QueueItem[]; emptyText: string }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{emptyText}</p>;
  return (
    <ul className="flex flex-col gap-2" aria-label="Queue">
      {items.map((item) => (
        <QueueRow key={`${item.kind}-${item.id}`} item={item} />
      ))}
    </ul>
  );
}

function QueueRow({ item }: { item: QueueItem }) {
  const [calling, setCalling] = useState(false);
  const [snoozing, setSnoozing] = useState(false);
  const done = useMarkDone();
  const markDone = () =>
    done.mutate({ kind: item.kind, id: item.id }, { onSuccess: () => toast.success('Done', { description: `${item.client_name}: ${item.title}` }) });
  const label = `${item.title} for ${item.client_name}`;
  return (
    <li className="flex flex-col gap-2 rounded-md border p-3 text-sm sm:flex-row sm:items-center" aria-label={label}>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex flex-wrap items-center gap-2">
          <Link to={`/clients/${item.intake_id}`} className="font-medium underline">
            {item.client_name}
          </Link>
          <Badge variant={item.late ? 'destructive' : 'outline'}>{item.when}</Badge>
        </span>
        <span>{item.title}</span>
        {item.detail && <span className="truncate text-muted-foreground">{item.detail}</span>}
      </div>
      <div className="flex flex-wrap gap-2">
        {item.action === 'log_call' && (
          <Button size="sm" onClick={() => setCalling(true)} aria-label={`Log a Call with ${item.client_name}`}>
            <Phone aria-hidden="true" />
            {item.action_label}
          </Button>
        )}
        {(item.action === 'open' || item.action === 'reschedule') && (
          <Button asChild size="sm">
            <Link to={item.route} aria-label={`${item.action_label}: ${label}`}>
              {item.action_label}
            </Link>
          </Button>
        )}
        {item.can_snooze && (
          <Button size="sm" variant="outline" onClick={() => setSnoozing(true)} aria-label={`Snooze: ${label}`}>
            <AlarmClock aria-hidden="true" />
            Snooze
          </Button>
        )}
        {item.can_mark_done && (
          <Button size="sm" variant={item.action === 'mark_done' ? 'default' : 'outline'} onClick={markDone} disabled={done.isPending} aria-label={`Mark Done: ${label}`}>
            <Check aria-hidden="true" />
            Mark Done
          </Button>
        )}
      </div>
      {calling && (
        <LogCallDialog
          contact={{ parents: { intake_id: item.intake_id }, clientName: item.client_name, email: '', phone: item.phone ?? '' }}
          open={calling}
          onOpenChange={setCalling}
        />
      )}
      {snoozing && <SnoozeDialog item={item} open={snoozing} onOpenChange={setSnoozing} />}
    </li>
  );
}
