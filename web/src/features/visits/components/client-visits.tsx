import { CalendarClock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { todayIso } from '@/lib/date-rules';
import { useIntakeRecord, useIntakeVisits } from '../api/visits';
import { visitDefaultsFromIntake, visitWhen } from '../visit-dates';
import { VisitActions } from './visit-actions';
import { ScheduleVisitButton, type VisitDefaults } from './schedule-visit-dialog';

/**
 * A client's assessment visits: the next scheduled one first, then the rest, with their actions.
 * Without `defaults` (the client profile), a new visit starts from the intake's consultation
 * and address, as on the intake screen.
 */
export function ClientVisitsCard({ intakeId, clientName, defaults, canSchedule }: { intakeId: string; clientName: string; defaults?: VisitDefaults; canSchedule: boolean }) {
  const visits = useIntakeVisits(intakeId);
  const intake = useIntakeRecord(intakeId, canSchedule && !defaults);
  const prefill = defaults ?? (intake.data ? visitDefaultsFromIntake(intake.data.form, todayIso()) : undefined);
  const items = [...(visits.data?.items ?? [])].sort((a, b) => Number(b.status === 'scheduled') - Number(a.status === 'scheduled'));
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarClock className="size-4" aria-hidden="true" />
          Assessment Visits
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {items.length === 0 && <p className="text-sm text-muted-foreground">No assessment visit scheduled.</p>}
        <ul className="flex flex-col gap-3">
          {items.map((visit) => (
            <li key={visit.id} className="flex flex-col gap-2 rounded-md border p-3 text-sm" aria-label={`Visit ${visitWhen(visit)}`}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{visitWhen(visit)}</span>
                <Badge variant={visit.status === 'scheduled' ? 'default' : 'secondary'}>{visit.status_label}</Badge>
              </div>
              <span className="text-muted-foreground">
                {visit.assessor_name} · {visit.place}
              </span>
              {visit.cancel_reason && <span className="text-muted-foreground">Reason: {visit.cancel_reason}</span>}
              <VisitActions visit={visit} compact />
            </li>
          ))}
        </ul>
        {canSchedule && <ScheduleVisitButton intakeId={intakeId} clientName={clientName} defaults={prefill} variant="outline" />}
      </CardContent>
    </Card>
  );
}
