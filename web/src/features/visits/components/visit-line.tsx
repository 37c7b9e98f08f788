import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import type { AssessmentVisit } from '../api/types';
import { timeLabel } from '../visit-dates';

/** One visit as a line of a day, a week or the dashboard: time, client, assessor, place. */
export function VisitLine({ visit, showAssessor = true }: { visit: AssessmentVisit; showAssessor?: boolean }) {
  const cancelled = visit.status === 'cancelled';
  return (
    <div className={cn('flex flex-col gap-0.5 text-sm', cancelled && 'text-muted-foreground line-through')}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium tabular-nums">
          {timeLabel(visit.local_start_time)} – {timeLabel(visit.local_end_time)}
        </span>
        <Link to={`/clients/${visit.intake_id}`} className="text-primary hover:underline">
          {visit.client_name}
        </Link>
        {visit.status !== 'scheduled' && <Badge variant="secondary">{visit.status_label}</Badge>}
      </div>
      <span className="text-xs text-muted-foreground">
        {showAssessor && `${visit.assessor_name} · `}
        {visit.place}
      </span>
    </div>
  );
}
