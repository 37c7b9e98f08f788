import { Copy, Paperclip, Send, Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { isApiError } from '@/lib/api-client';
import { useDraftMarketingEmail } from '../api/marketing-email';
import { useSendProposal } from '../api/send-proposal';
import type { CarePlan } from '../api/types';

export const PROPOSAL_SUBJECT = 'Home Care Proposal';

/** The spec's texts for a draft that failed. */
export function draftFailureText(error: unknown): string {
  if (isApiError(error) && error.status === 429) return 'AI rate limit exceeded. Please try again in a moment.';
  if (isApiError(error) && error.status === 402) return 'AI credits are used up. Please add credits to the AI workspace to continue.';
  return 'Failed to generate email. Please try again.';
}

interface ProposalEmailDialogProps {
  plan: CarePlan;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPlanChanged: (plan: CarePlan) => void;
  /** The form's 'Marketing Proposal Email', or the list's shorter 'Send Care Plan Email'. */
  variant?: 'proposal' | 'list';
}

export function ProposalEmailDialog({ plan, open, onOpenChange, onPlanChanged, variant = 'proposal' }: ProposalEmailDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        {open && <ProposalEmailForm plan={plan} onDone={() => onOpenChange(false)} onPlanChanged={onPlanChanged} variant={variant} />}
      </DialogContent>
    </Dialog>
  );
}

function ProposalEmailForm({ plan, onDone, onPlanChanged, variant }: { plan: CarePlan; onDone: () => void; onPlanChanged: (plan: CarePlan) => void; variant: 'proposal' | 'list' }) {
  const [to, setTo] = useState(plan.family_contact_email);
  const [subject, setSubject] = useState(PROPOSAL_SUBJECT);
  const [content, setContent] = useState(plan.marketing_email_content ?? '');
  // The version on screen: drafting the email stores it with the plan, a new version.
  const [version, setVersion] = useState(plan.version);
  const [conflict, setConflict] = useState<string | null>(null);
  const draft = useDraftMarketingEmail();
  const send = useSendProposal();
  const drafted = useRef(false);

  const generate = () =>
    draft.mutate(plan.id, {
      onSuccess: (answer) => {
        onPlanChanged(answer.care_plan);
        setVersion(answer.care_plan.version);
        setContent(answer.generated_text);
        if (answer.subject) setSubject(answer.subject);
      },
      onError: (error) => toast.error('Generation Failed', { description: draftFailureText(error) }),
    });

  // A plan without a stored email gets its first draft as the dialog opens.
  useEffect(() => {
    if (drafted.current || plan.marketing_email_content) return;
    drafted.current = true;
    generate();
  });

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(`Subject: ${subject}\n\n${content}`);
      toast.success('Copied to clipboard');
    } catch {
      toast.error('Copy failed', { description: 'The browser did not allow copying; select the text and copy it instead.' });
    }
  };

  const onSend = () => {
    if (!to.trim() || !content.trim()) {
      toast.error('Error', { description: 'Please provide recipient email and email content.' });
      return;
    }
    setConflict(null);
    send.mutate(
      { id: plan.id, body: { to: to.trim(), subject: subject.trim() || PROPOSAL_SUBJECT, body: content, version } },
      {
        onError: (error) => {
          if (isApiError(error) && error.status === 409) setConflict(error.message);
        },
        onSuccess: (sent) => {
          onPlanChanged(sent.care_plan);
          if (sent.communication.status === 'failed') {
            toast.error('Send Failed', { description: sent.communication.failure_reason ?? 'Failed to send email' });
            return;
          }
          toast.success('Email Sent', { description: `The proposal was sent to ${to.trim()} with the proposal letter attached.` });
          onDone();
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>{variant === 'list' ? 'Send Care Plan Email' : 'Marketing Proposal Email'}</DialogTitle>
        <DialogDescription>The proposal for {plan.client_name}. Review the text before sending it to the family.</DialogDescription>
      </DialogHeader>
      <TextField id="proposal-to" label={variant === 'list' ? 'Recipient Email' : 'Recipient'} type="email" value={to} onChange={setTo} required />
      {variant === 'proposal' && <TextField id="proposal-subject" label="Subject" value={subject} onChange={setSubject} />}
      <TextareaField id="proposal-content" label="Email Content" value={content} onChange={setContent} rows={12} placeholder={draft.isPending ? 'Generating...' : ''} />
      <p className="flex items-center gap-2 text-xs text-muted-foreground">
        <Paperclip className="size-3" aria-hidden="true" />
        PDF attached: the proposal letter (the same document as Print).
      </p>
      {conflict && (
        <p role="alert" className="rounded-md border border-destructive bg-destructive/10 p-3 text-sm">
          {conflict} The email was not sent: close this dialog and open the latest version of the care plan.
        </p>
      )}
      <DialogFooter className="flex-wrap gap-2">
        {variant === 'list' ? (
          <Button variant="outline" onClick={onDone}>
            Cancel
          </Button>
        ) : (
          <Button variant="outline" onClick={generate} disabled={draft.isPending}>
            <Sparkles aria-hidden="true" />
            {draft.isPending ? 'Generating...' : 'Regenerate with AI'}
          </Button>
        )}
        <Button variant="outline" onClick={() => void copy()} disabled={!content}>
          <Copy aria-hidden="true" />
          {variant === 'list' ? 'Copy Email' : 'Copy to Clipboard'}
        </Button>
        <Button onClick={onSend} disabled={send.isPending || draft.isPending}>
          <Send aria-hidden="true" />
          {send.isPending ? 'Sending...' : 'Send Email'}
        </Button>
      </DialogFooter>
    </>
  );
}
