import { CalendarClock } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { todayIso } from '@/lib/date-rules';
import { useVisits } from '../api/visits';
import { addDays, dayLabel } from '../visit-dates';
import { VisitLine } from './visit-line';

/** The dashboard's "Today's Visits", with the rest of the coming week below. */
export function UpcomingVisitsCard() {
  const today = todayIso();
  const visits = useVisits({ from: today, to: addDays(today, 6) });
  const scheduled = (visits.data?.items ?? []).filter((visit) => visit.status === 'scheduled');
  const todays = scheduled.filter((visit) => visit.local_date === today);
  const later = scheduled.filter((visit) => visit.local_date !== today);
  return (
    <Card className="mb-6">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle className="flex items-center gap-2">
          <CalendarClock className="size-4" aria-hidden="true" />
          Today&apos;s Visits ({todays.length})
        </CardTitle>
        <Link to="/visits" className="text-sm text-primary hover:underline">
          All visits
        </Link>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {todays.length === 0 && <p className="text-sm text-muted-foreground">{visits.isPending ? 'Loading visits...' : 'No visits today.'}</p>}
        {todays.length > 0 && (
          <ul className="flex flex-col gap-2">
            {todays.map((visit) => (
              <li key={visit.id}>
                <VisitLine visit={visit} />
              </li>
            ))}
          </ul>
        )}
        {later.length > 0 && (
          <section aria-label="Visits this week" className="flex flex-col gap-2 border-t pt-3">
            <h3 className="text-sm font-semibold">This week</h3>
            <ul className="flex flex-col gap-2">
              {later.map((visit) => (
                <li key={visit.id} className="flex flex-col gap-0.5">
                  <span className="text-xs font-medium text-muted-foreground">{dayLabel(visit.local_date)}</span>
                  <VisitLine visit={visit} />
                </li>
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
