import { CheckCircle2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';

interface IntakeSavedDialogProps {
  open: boolean;
  onDashboard: () => void;
  onScheduleAssessment: () => void;
  /** Books the home visit instead of opening the assessment form now. */
  onScheduleVisit?: () => void;
  /** The client's assessment when it already has one: opening it replaces scheduling a new one. */
  onOpenAssessment: (() => void) | null;
}

export function IntakeSavedDialog({ open, onDashboard, onScheduleAssessment, onScheduleVisit, onOpenAssessment }: IntakeSavedDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onDashboard()}>
      <DialogContent hideClose>
        <DialogHeader>
          <CheckCircle2 className="size-8 text-success" aria-hidden="true" />
          <DialogTitle>Intake Saved Successfully!</DialogTitle>
          <DialogDescription>What would you like to do next?</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onDashboard}>
            Return to Dashboard
          </Button>
          {!onOpenAssessment && onScheduleVisit && (
            <Button variant="secondary" onClick={onScheduleVisit}>
              Schedule Assessment Visit
            </Button>
          )}
          {onOpenAssessment ? <Button onClick={onOpenAssessment}>Open Assessment</Button> : <Button onClick={onScheduleAssessment}>Schedule Assessment Now</Button>}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
