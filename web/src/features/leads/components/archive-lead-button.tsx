import { Archive, RotateCcw } from 'lucide-react';
import { ARCHIVE_STATUS_VALUES } from '@/api/options.gen';
import { useState } from 'react';
import { toast } from 'sonner';
import { RadioGroupField } from '@/components/form/radio-group-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { titleCase } from '@/lib/format';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useArchiveLead, useReopenLead, type ArchiveStatus } from '../api/archive-lead';

const STATUS_OPTIONS = ARCHIVE_STATUS_VALUES.map((value) => ({ value, label: titleCase(value) }));

interface ArchiveLeadButtonProps {
  intakeId: string;
  clientName: string;
  archived: boolean;
}

/** Marks a lost lead declined or not interested (with the reason), or reopens an archived one. */
export function ArchiveLeadButton({ intakeId, clientName, archived }: ArchiveLeadButtonProps) {
  const [open, setOpen] = useState(false);
  const reopen = useReopenLead();
  if (archived) {
    return (
      <Button variant="outline" disabled={reopen.isPending} onClick={() => reopen.mutate(intakeId, { onSuccess: () => toast.success('Client Reopened', { description: `${clientName} is back in the pipeline.` }) })}>
        <RotateCcw aria-hidden="true" />
        Reopen
      </Button>
    );
  }
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Archive aria-hidden="true" />
        Mark as Lost
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>{open && <ArchiveForm intakeId={intakeId} clientName={clientName} onDone={() => setOpen(false)} />}</DialogContent>
      </Dialog>
    </>
  );
}

function ArchiveForm({ intakeId, clientName, onDone }: { intakeId: string; clientName: string; onDone: () => void }) {
  const [status, setStatus] = useState<ArchiveStatus>('declined');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const archive = useArchiveLead();
  const onArchive = () => {
    if (!reason.trim()) {
      setError('Please give the reason.');
      return;
    }
    archive.mutate(
      { intakeId, body: { status, reason: reason.trim() } },
      {
        onSuccess: () => {
          toast.success('Client Archived', { description: `${clientName} now shows under Archived / Declined.` });
          onDone();
        },
      },
    );
  };
  return (
    <>
      <DialogHeader>
        <DialogTitle>Mark {clientName} as Lost</DialogTitle>
        <DialogDescription>The client leaves the active counts and follow-up lists and shows under Archived / Declined. You can reopen it later.</DialogDescription>
      </DialogHeader>
      <RadioGroupField id="archive-status" label="Outcome" value={status} onChange={(value) => setStatus(ARCHIVE_STATUS_VALUES.find((option) => option === value) ?? 'declined')} options={STATUS_OPTIONS} required />
      <TextareaField
        id="archive-reason"
        label="Reason"
        value={reason}
        onChange={(value) => {
          setReason(value);
          setError(undefined);
        }}
        error={error}
        required
      />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={onArchive} disabled={archive.isPending}>
          {archive.isPending ? 'Saving...' : 'Archive Client'}
        </Button>
      </DialogFooter>
    </>
  );
}
