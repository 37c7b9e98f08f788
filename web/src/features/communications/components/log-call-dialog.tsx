import { useState } from 'react';
import { toast } from 'sonner';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useLogCall } from '../api/communications';
import type { ClientContact } from './client-contact';

export function LogCallDialog({ contact, open, onOpenChange }: { contact: ClientContact; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open && <CallForm contact={contact} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}

function CallForm({ contact, onDone }: { contact: ClientContact; onDone: () => void }) {
  const [phone, setPhone] = useState(contact.phone);
  const [duration, setDuration] = useState('');
  const [notes, setNotes] = useState('');
  const [internal, setInternal] = useState(false);
  const log = useLogCall();

  const onSave = () => {
    if (!phone.trim() || !notes.trim()) {
      toast.error('Please fill in phone number and notes');
      return;
    }
    log.mutate(
      { ...contact.parents, phone: phone.trim(), notes, duration: duration.trim(), internal },
      {
        onSuccess: () => {
          toast.success('Call logged successfully!');
          onDone();
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Log Call</DialogTitle>
        <DialogDescription>With {contact.clientName || 'the client'}</DialogDescription>
      </DialogHeader>
      <TextField id="call-phone" label="Phone number" type="tel" value={phone} onChange={setPhone} required />
      <TextField id="call-duration" label="Duration" value={duration} onChange={setDuration} placeholder="e.g. 15 minutes" />
      <TextareaField id="call-notes" label="Call notes" value={notes} onChange={setNotes} rows={5} required />
      <SwitchField id="call-internal" label="Internal Call Only" description="Hide this call from the client." checked={internal} onChange={setInternal} />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={onSave} disabled={log.isPending}>
          {log.isPending ? 'Saving...' : 'Log Call'}
        </Button>
      </DialogFooter>
    </>
  );
}
