import { Printer } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCancelVisit, useMarkVisitDone, visitPacketUrl } from '../api/visits';
import type { AssessmentVisit } from '../api/types';
import { visitWhen } from '../visit-dates';
import { ScheduleVisitDialog } from './schedule-visit-dialog';

/** Call a visit off: a reason is required; the calendars are told to remove it. */
export function CancelVisitDialog({ visit, open, onOpenChange }: { visit: AssessmentVisit; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const cancel = useCancelVisit();
  const onConfirm = () => {
    cancel.mutate(
      { visit, reason: reason.trim() },
      {
        onSuccess: (answer) => {
          toast.success('Assessment visit cancelled', { description: answer.warnings.length > 0 ? answer.warnings.join(' ') : undefined });
          setReason('');
          onOpenChange(false);
        },
        onError: (failure) => {
          setError(isApiError(failure) ? failure.fields.reason : undefined);
          toast.error('Failed to cancel visit', { description: errorMessage(failure, 'Please try again.') });
        },
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel Assessment Visit</DialogTitle>
          <DialogDescription>
            {visit.client_name}, {visitWhen(visit)}
          </DialogDescription>
        </DialogHeader>
        <TextareaField
          id={`cancel-reason-${visit.id}`}
          label="Reason"
          value={reason}
          onChange={(value) => {
            setReason(value);
            setError(undefined);
          }}
          required
          error={error}
        />
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Keep Visit
          </Button>
          <Button variant="destructive" onClick={onConfirm} disabled={cancel.isPending}>
            {cancel.isPending ? 'Cancelling...' : 'Cancel Visit'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Opens the visit's packet (intake summary, contacts, visit, map link, worksheet) to print. */
export function PrintPacketButton({ visit, size = 'default' }: { visit: AssessmentVisit; size?: 'sm' | 'default' }) {
  return (
    <Button variant="outline" size={size} onClick={() => window.open(visitPacketUrl(visit.id), '_blank', 'noopener')} aria-label={`Print Packet for visit with ${visit.client_name}`}>
      <Printer aria-hidden="true" />
      Print Packet
    </Button>
  );
}

/**
 * Start Assessment, Print Packet, Reschedule, Cancel and Mark Done for a scheduled visit;
 * a visit held keeps its Print Packet, a cancelled one has no actions.
 */
export function VisitActions({ visit, compact = false }: { visit: AssessmentVisit; compact?: boolean }) {
  const [moving, setMoving] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const done = useMarkVisitDone();
  const size = compact ? 'sm' : 'default';
  if (visit.status === 'done') {
    return (
      <div className="flex flex-wrap gap-2">
        <PrintPacketButton visit={visit} size={size} />
      </div>
    );
  }
  if (visit.status !== 'scheduled') return null;
  const onDone = () =>
    done.mutate(visit, {
      onSuccess: () => toast.success('Visit marked as done'),
      onError: (failure) => toast.error('Failed to update visit', { description: errorMessage(failure, 'Please try again.') }),
    });
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild size={size}>
        <Link to={`/assessments/new?intake_id=${visit.intake_id}`}>Start Assessment</Link>
      </Button>
      <PrintPacketButton visit={visit} size={size} />
      <Button variant="outline" size={size} onClick={() => setMoving(true)} aria-label={`Reschedule visit with ${visit.client_name}`}>
        Reschedule
      </Button>
      <Button variant="outline" size={size} onClick={() => setCancelling(true)} aria-label={`Cancel visit with ${visit.client_name}`}>
        Cancel
      </Button>
      <Button variant="ghost" size={size} onClick={onDone} disabled={done.isPending} aria-label={`Mark Done: visit with ${visit.client_name}`}>
        Mark Done
      </Button>
      <ScheduleVisitDialog intakeId={visit.intake_id} clientName={visit.client_name} visit={visit} open={moving} onOpenChange={setMoving} />
      <CancelVisitDialog visit={visit} open={cancelling} onOpenChange={setCancelling} />
    </div>
  );
}
