import { Check } from 'lucide-react';
import { Link } from 'react-router';
import type { JourneyStep } from '@/api/types';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';

export function JourneyBar({ journey }: { journey: readonly JourneyStep[] }) {
  return (
    <ol aria-label="Client journey" className="grid gap-2 sm:grid-cols-4">
      {journey.map((step) => {
        const body = (
          <>
            <span className={cn('flex size-7 shrink-0 items-center justify-center rounded-full border', step.complete && 'border-primary bg-primary text-primary-foreground')}>
              {step.complete && <Check className="size-4" aria-hidden="true" />}
            </span>
            <span className="flex flex-col">
              <span className="font-medium">{step.label}</span>
              <span className="text-xs text-muted-foreground">{step.complete ? formatDate(step.date) : 'Not started'}</span>
            </span>
          </>
        );
        return (
          <li key={step.stage}>
            {step.enabled ? (
              <Link to={step.route} className="flex items-center gap-2 rounded-md p-2 text-sm hover:bg-muted">
                {body}
              </Link>
            ) : (
              <span className="flex items-center gap-2 rounded-md p-2 text-sm opacity-60" aria-disabled="true">
                {body}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
