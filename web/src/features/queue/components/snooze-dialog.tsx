import { useState } from 'react';
import { toast } from 'sonner';
import { DateField } from '@/components/form/date-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { isApiError } from '@/lib/api-client';
import { useSnooze, type QueueItem } from '../api/queue';

/** Puts a queue row off to a later day with a reason; the server checks both. */
export function SnoozeDialog({ item, open, onOpenChange }: { item: QueueItem; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open && <SnoozeForm item={item} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}

function SnoozeForm({ item, onDone }: { item: QueueItem; onDone: () => void }) {
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const snooze = useSnooze();
  const onSave = () =>
    snooze.mutate(
      { kind: item.kind, id: item.id, until, reason },
      {
        onSuccess: () => {
          toast.success('Snoozed', { description: `${item.client_name}: ${item.title}` });
          onDone();
        },
        onError: (error) => setErrors(isApiError(error) ? error.fields : {}),
      },
    );
  return (
    <>
      <DialogHeader>
        <DialogTitle>Snooze {item.client_name}</DialogTitle>
        <DialogDescription>
          {item.title}. It comes back to the queue on the day you choose{item.kind === 'follow_up' || item.kind === 'task' ? ', which becomes its new date' : ''}.
        </DialogDescription>
      </DialogHeader>
      <DateField id="snooze-until" label="Until" value={until} onChange={setUntil} futureOnly required error={errors.until} />
      <TextareaField id="snooze-reason" label="Reason" value={reason} onChange={setReason} required error={errors.reason} />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={onSave} disabled={snooze.isPending}>
          {snooze.isPending ? 'Saving...' : 'Snooze'}
        </Button>
      </DialogFooter>
    </>
  );
}
