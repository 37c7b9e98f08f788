import { AddNoteDialog } from './add-note-dialog';
import type { ClientContact, ComposeKind } from './client-contact';
import { LogCallDialog } from './log-call-dialog';
import { SendEmailDialog } from './send-email-dialog';
import { SendSmsDialog } from './send-sms-dialog';

/** The four compose dialogs; `open` says which one is showing. */
export function ComposeDialogs({ contact, open, onClose }: { contact: ClientContact; open: ComposeKind | null; onClose: () => void }) {
  const onOpenChange = (next: boolean) => {
    if (!next) onClose();
  };
  return (
    <>
      <SendEmailDialog contact={contact} open={open === 'email'} onOpenChange={onOpenChange} />
      <SendSmsDialog contact={contact} open={open === 'sms'} onOpenChange={onOpenChange} />
      <AddNoteDialog contact={contact} open={open === 'note'} onOpenChange={onOpenChange} />
      <LogCallDialog contact={contact} open={open === 'call'} onOpenChange={onOpenChange} />
    </>
  );
}
