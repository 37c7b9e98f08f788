import { useQuery } from '@tanstack/react-query';
import { CalendarPlus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { DateField } from '@/components/form/date-field';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useMe } from '@/features/auth/api/auth';
import { errorMessage, isApiError } from '@/lib/api-client';
import { addDays } from '../visit-dates';
import { todayIso } from '@/lib/date-rules';
import { assessorsQueryOptions, useRescheduleVisit, useScheduleVisit } from '../api/visits';
import type { AssessmentVisit, VisitAnswer, VisitInput } from '../api/types';

const LENGTHS = [30, 45, 60, 90, 120, 180, 240].map((minutes) => ({ value: String(minutes), label: minutes < 60 ? `${minutes} minutes` : `${minutes / 60} hour${minutes === 60 ? '' : 's'}` }));

export interface VisitDefaults {
  date?: string;
  startTime?: string;
  place?: string;
}

interface ScheduleVisitDialogProps {
  intakeId: string;
  clientName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Rescheduling: the visit as last read (its version is named on save). */
  visit?: AssessmentVisit | null;
  defaults?: VisitDefaults;
}

function initial(visit: AssessmentVisit | null | undefined, defaults: VisitDefaults | undefined, me: string): VisitInput {
  if (visit) {
    return { date: visit.local_date, start_time: visit.local_start_time, duration_minutes: visit.duration_minutes, place: visit.place, assessor_id: visit.assessor_id, notes: visit.notes ?? '' };
  }
  return { date: defaults?.date || addDays(todayIso(), 1), start_time: defaults?.startTime || '10:00', duration_minutes: 60, place: defaults?.place ?? '', assessor_id: me, notes: '' };
}

function announce(answer: VisitAnswer, moved: boolean) {
  toast.success(moved ? 'Assessment visit rescheduled' : 'Assessment visit scheduled', { description: answer.warnings.length > 0 ? answer.warnings.join(' ') : undefined });
}

/** Book (or move) a home assessment visit: date, start time, length, place, assessor, notes. */
export function ScheduleVisitDialog({ intakeId, clientName, open, onOpenChange, visit, defaults }: ScheduleVisitDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{visit ? 'Reschedule Assessment Visit' : 'Schedule Assessment Visit'}</DialogTitle>
          <DialogDescription>Home assessment visit for {clientName}. The family contact and the assessor receive a calendar invitation.</DialogDescription>
        </DialogHeader>
        {open && <VisitForm intakeId={intakeId} visit={visit} defaults={defaults} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function VisitForm({ intakeId, visit, defaults, onDone }: { intakeId: string; visit?: AssessmentVisit | null | undefined; defaults?: VisitDefaults | undefined; onDone: () => void }) {
  const me = useMe();
  const profiles = useQuery(assessorsQueryOptions);
  const [input, setInput] = useState<VisitInput>(() => initial(visit, defaults, me.data?.id ?? ''));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const schedule = useScheduleVisit(intakeId);
  const reschedule = useRescheduleVisit();
  const busy = schedule.isPending || reschedule.isPending;
  const set = <K extends keyof VisitInput>(key: K, value: VisitInput[K]) => {
    setInput((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: '' }));
  };
  const assessor = input.assessor_id || me.data?.id || '';
  const options = (profiles.data?.items ?? []).map((profile) => ({ value: profile.id, label: profile.full_name }));

  const onFailure = (error: unknown) => {
    if (isApiError(error)) setErrors(error.fields);
    toast.error(visit ? 'Failed to reschedule visit' : 'Failed to schedule visit', { description: errorMessage(error, 'Please try again.') });
  };
  const onSave = () => {
    const body: VisitInput = { ...input, assessor_id: assessor, place: input.place.trim(), notes: input.notes.trim() };
    if (visit) {
      reschedule.mutate({ visit, input: body }, { onSuccess: (answer) => { announce(answer, true); onDone(); }, onError: onFailure });
    } else {
      schedule.mutate(body, { onSuccess: (answer) => { announce(answer, false); onDone(); }, onError: onFailure });
    }
  };

  return (
    <form
      noValidate
      aria-label={visit ? 'Reschedule visit' : 'Schedule visit'}
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <DateField id="visit-date" label="Date" value={input.date} onChange={(value) => set('date', value)} futureOnly required error={errors.date || undefined} />
        <TextField id="visit-start-time" label="Start time" type="time" value={input.start_time} onChange={(value) => set('start_time', value)} required error={errors.start_time || undefined} />
        <SelectField
          id="visit-length"
          label="Expected length"
          value={String(input.duration_minutes)}
          onChange={(value) => set('duration_minutes', Number(value) || 60)}
          options={LENGTHS}
          error={errors.duration_minutes || undefined}
        />
        <SelectField id="visit-assessor" label="Assessor" value={assessor} onChange={(value) => set('assessor_id', value)} options={options} required error={errors.assessor_id || undefined} />
      </div>
      <TextareaField id="visit-place" label="Place" rows={2} value={input.place} onChange={(value) => set('place', value)} required error={errors.place || undefined} />
      <TextareaField id="visit-notes" label="Notes" value={input.notes} onChange={(value) => set('notes', value)} error={errors.notes || undefined} />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : visit ? 'Reschedule Visit' : 'Schedule Visit'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** "Schedule Assessment Visit" and its dialog. */
export function ScheduleVisitButton({ intakeId, clientName, defaults, variant = 'secondary' }: { intakeId: string; clientName: string; defaults?: VisitDefaults; variant?: 'secondary' | 'outline' | 'default' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        <CalendarPlus aria-hidden="true" />
        Schedule Assessment Visit
      </Button>
      <ScheduleVisitDialog intakeId={intakeId} clientName={clientName} open={open} onOpenChange={setOpen} defaults={defaults} />
    </>
  );
}
