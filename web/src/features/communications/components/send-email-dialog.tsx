import { Paperclip, X } from 'lucide-react';
import { useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ATTACHMENT_ACCEPT, ATTACHMENT_HINT, attachmentProblem, formatBytes } from '@/lib/attachments';
import { useSendEmail } from '../api/communications';
import type { AttachmentInfo } from '../api/types';
import { AiDraftBox } from './ai-draft-box';
import type { ClientContact } from './client-contact';

export function SendEmailDialog({ contact, open, onOpenChange }: { contact: ClientContact; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">{open && <EmailForm contact={contact} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}

function EmailForm({ contact, onDone }: { contact: ClientContact; onDone: () => void }) {
  const [to, setTo] = useState(contact.email);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [attachments, setAttachments] = useState<AttachmentInfo[]>([]);
  const send = useSendEmail();

  const onFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const accepted: AttachmentInfo[] = [];
    for (const file of Array.from(event.target.files ?? [])) {
      const problem = attachmentProblem(file);
      if (problem) toast.error(problem);
      else accepted.push({ name: file.name, size: file.size });
    }
    setAttachments((current) => [...current, ...accepted]);
    event.target.value = '';
  };

  const onSend = () => {
    if (!to.trim() || !subject.trim() || !body.trim()) {
      toast.error('Please fill in all fields');
      return;
    }
    send.mutate(
      { ...contact.parents, to: to.trim(), subject: subject.trim(), body, attachments },
      {
        onSuccess: (sent) => {
          if (sent.status === 'failed') {
            toast.error('Failed to send email', { description: sent.failure_reason ?? undefined });
            return;
          }
          toast.success('Email sent successfully!');
          onDone();
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Send Email</DialogTitle>
        <DialogDescription>To {contact.clientName || 'the client'}</DialogDescription>
      </DialogHeader>
      <AiDraftBox
        id="email-ai-prompt"
        kind="email"
        parents={contact.parents}
        clientName={contact.clientName}
        onDraft={(text, draftSubject) => {
          setBody(text);
          if (draftSubject) setSubject(draftSubject);
        }}
      />
      <TextField id="email-to" label="To" type="email" value={to} onChange={setTo} required />
      <TextField id="email-subject" label="Subject" value={subject} onChange={setSubject} required />
      <TextareaField id="email-body" label="Message" value={body} onChange={setBody} rows={8} required />
      <div className="flex flex-col gap-2">
        <label htmlFor="email-attachments" className="flex w-fit cursor-pointer items-center gap-2 text-sm font-medium text-primary">
          <Paperclip className="size-4" aria-hidden="true" />
          Attach files
        </label>
        <input id="email-attachments" type="file" multiple accept={ATTACHMENT_ACCEPT} onChange={onFiles} className="text-sm" />
        <p className="text-xs text-muted-foreground">{ATTACHMENT_HINT}</p>
        {attachments.length > 0 && (
          <ul className="flex flex-col gap-1 text-sm" aria-label="Attachments">
            {attachments.map((file, index) => (
              <li key={`${file.name}-${index}`} className="flex items-center justify-between rounded border px-2 py-1">
                <span>
                  {file.name} <span className="text-muted-foreground">({formatBytes(file.size)})</span>
                </span>
                <Button variant="ghost" size="icon" aria-label={`Remove ${file.name}`} onClick={() => setAttachments((current) => current.filter((_, at) => at !== index))}>
                  <X aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={onSend} disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send Email'}
        </Button>
      </DialogFooter>
    </>
  );
}
