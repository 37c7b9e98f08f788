import { useState } from 'react';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { smsCounterText, smsLimitWarning } from '@/lib/sms';
import { useSendSms, useSmsLimitWarnings } from '../api/communications';
import { AiDraftBox } from './ai-draft-box';
import type { ClientContact } from './client-contact';

export function SendSmsDialog({ contact, open, onOpenChange }: { contact: ClientContact; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open && <SmsForm contact={contact} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}

function SmsForm({ contact, onDone }: { contact: ClientContact; onDone: () => void }) {
  const [to, setTo] = useState(contact.phone);
  const [message, setMessage] = useState('');
  const send = useSendSms();
  const warnOverLimit = useSmsLimitWarnings();
  const limitWarning = warnOverLimit ? smsLimitWarning(message) : undefined;

  const onSend = () => {
    if (!to.trim() || !message.trim()) {
      toast.error('Please fill in all fields');
      return;
    }
    send.mutate(
      { ...contact.parents, to: to.trim(), message },
      {
        onSuccess: (sent) => {
          if (sent.status === 'failed') {
            toast.error('Failed to send SMS', { description: sent.failure_reason ?? undefined });
            return;
          }
          toast.success('SMS sent successfully!');
          onDone();
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Send SMS</DialogTitle>
        <DialogDescription>To {contact.clientName || 'the client'}</DialogDescription>
      </DialogHeader>
      <AiDraftBox id="sms-ai-prompt" kind="sms" parents={contact.parents} clientName={contact.clientName} onDraft={(text) => setMessage(text)} />
      <TextField id="sms-to" label="Phone number" type="tel" value={to} onChange={setTo} required />
      <TextareaField id="sms-message" label="Message" value={message} onChange={setMessage} rows={5} required hint={smsCounterText(message)} warning={limitWarning} />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={onSend} disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send SMS'}
        </Button>
      </DialogFooter>
    </>
  );
}
