import { CheckCircle2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { useApproveFromReply, usePendingAcceptance } from '../api/communications';

/** "Family replied YES to the proposal — approve?": the reply beside it, and one click that approves. */
export function PendingAcceptanceBanner({ intakeId }: { intakeId: string | undefined }) {
  const pending = usePendingAcceptance(intakeId).data?.pending;
  const approve = useApproveFromReply();
  if (!pending) return null;
  return (
    <section aria-label="Family's answer to the proposal" className="flex flex-col gap-2 rounded-md border border-primary bg-accent p-3 text-accent-foreground">
      <p className="font-medium">{pending.prompt}</p>
      <blockquote className="border-l-2 border-primary pl-3 text-sm whitespace-pre-line">{pending.text}</blockquote>
      <p className="text-xs">
        {pending.communication_type === 'sms' ? 'Text message' : 'Email'} received <time dateTime={pending.received_at}>{formatDateTime(pending.received_at)}</time>
      </p>
      <Button
        size="sm"
        className="w-fit"
        disabled={approve.isPending}
        onClick={() => approve.mutate(pending.communication_id, { onSuccess: () => toast.success('Proposal approved') })}
      >
        <CheckCircle2 aria-hidden="true" />
        Approve proposal
      </Button>
    </section>
  );
}
