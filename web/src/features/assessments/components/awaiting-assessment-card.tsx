import { AlertTriangle, CalendarPlus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { useAwaitingAssessment } from '../api/get-awaiting-assessment';

export function AwaitingAssessmentCard() {
  const awaiting = useAwaitingAssessment();
  const intakes = awaiting.data?.items ?? [];
  const total = awaiting.data?.total ?? 0;
  if (total === 0) return null;
  return (
    <Card className="mb-6 border-warning bg-warning-background/40">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AlertTriangle className="size-4 text-warning" aria-hidden="true" />
          Intakes Awaiting Assessment ({total})
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-2">
          {intakes.map((intake) => (
            <li key={intake.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border bg-background p-3 text-sm">
              <span>
                <span className="font-medium">{intake.client_full_name}</span>
                <span className="ml-2 text-muted-foreground">Intake {formatDate(intake.created_at)}</span>
              </span>
              <Button asChild size="sm">
                <Link to={`/assessments/new?intake_id=${intake.id}`} aria-label={`Schedule Assessment for ${intake.client_full_name}`}>
                  <CalendarPlus aria-hidden="true" />
                  Schedule Assessment
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
