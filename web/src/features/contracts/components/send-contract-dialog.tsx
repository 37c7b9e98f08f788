import { Copy, Paperclip, Send } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { isApiError } from '@/lib/api-client';
import { useContractEmailDraft } from '../api/get-contract-email-draft';
import { useSendContract } from '../api/send-contract';
import type { Contract, EmailDraft } from '../api/types';

export const CONTRACT_SUBJECT = 'Home Care Service Agreement - Ready for Signature';

interface SendContractDialogProps {
  contract: Contract;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSent: (contract: Contract) => void;
}

export function SendContractDialog({ contract, open, onOpenChange, onSent }: SendContractDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">{open && <SendContractDraft contract={contract} onDone={() => onOpenChange(false)} onSent={onSent} />}</DialogContent>
    </Dialog>
  );
}

/** Loads the server's email for this contract, then the form starts from it. */
function SendContractDraft({ contract, onDone, onSent }: { contract: Contract; onDone: () => void; onSent: (contract: Contract) => void }) {
  const draft = useContractEmailDraft(contract.id);
  if (!draft.data) {
    return (
      <DialogHeader>
        <DialogTitle>Send Contract for Signature</DialogTitle>
        <DialogDescription>{draft.isError ? 'The email could not be prepared. Close this dialog and try again.' : 'Preparing the email...'}</DialogDescription>
      </DialogHeader>
    );
  }
  return <SendContractForm contract={contract} draft={draft.data} onDone={onDone} onSent={onSent} />;
}

function SendContractForm({ contract, draft, onDone, onSent }: { contract: Contract; draft: EmailDraft; onDone: () => void; onSent: (contract: Contract) => void }) {
  const [subject, setSubject] = useState(draft.subject);
  const [body, setBody] = useState(draft.body);
  const [conflict, setConflict] = useState<string | null>(null);
  const send = useSendContract();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(`Subject: ${subject}\n\n${body}`);
      toast.success('Copied to clipboard');
    } catch {
      toast.error('Copy failed', { description: 'The browser did not allow copying; select the text and copy it instead.' });
    }
  };

  const onSend = () => {
    setConflict(null);
    send.mutate(
      { id: contract.id, body: { subject: subject.trim() || CONTRACT_SUBJECT, body, version: contract.version } },
      {
        onError: (error) => {
          if (isApiError(error) && error.status === 409) setConflict(error.message);
        },
        onSuccess: (sent) => {
          if (sent.communication.status === 'failed') {
            toast.error('Error', { description: sent.communication.failure_reason ?? 'Failed to send contract' });
            return;
          }
          onSent(sent.contract);
          onDone();
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Send Contract for Signature</DialogTitle>
        <DialogDescription>The agreement for {contract.client_name} goes to the family contact with the contract PDF attached.</DialogDescription>
      </DialogHeader>
      <TextField id="contract-subject" label="Subject" value={subject} onChange={setSubject} />
      <TextField id="contract-to" label="To" type="email" value={contract.family_contact_email} onChange={() => undefined} readOnly />
      <TextareaField id="contract-body" label="Message" value={body} onChange={setBody} rows={10} />
      <p className="flex items-center gap-2 text-xs text-muted-foreground">
        <Paperclip className="size-3" aria-hidden="true" />
        PDF attached: the contract.
      </p>
      {conflict && (
        <p role="alert" className="rounded-md border border-destructive bg-destructive/10 p-3 text-sm">
          {conflict} The contract was not sent: close this dialog and open the latest version.
        </p>
      )}
      <DialogFooter className="flex-wrap gap-2">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy Email
        </Button>
        <Button onClick={onSend} disabled={send.isPending || !contract.family_contact_email}>
          <Send aria-hidden="true" />
          {send.isPending ? 'Sending...' : 'Send Contract'}
        </Button>
      </DialogFooter>
    </>
  );
}
