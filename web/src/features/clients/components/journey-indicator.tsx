import { Check } from 'lucide-react';
import type { JourneyStep } from '@/api/types';
import { cn } from '@/lib/cn';

/** Four dots, filled for each step whose record exists. */
export function JourneyIndicator({ journey }: { journey: readonly JourneyStep[] }) {
  const done = journey.filter((step) => step.complete).map((step) => step.label);
  return (
    <span className="flex items-center gap-1" role="img" aria-label={done.length ? `Journey: ${done.join(', ')} done` : 'Journey: not started'}>
      {journey.map((step) => (
        <span key={step.stage} title={step.label} className={cn('flex size-5 items-center justify-center rounded-full border', step.complete ? 'border-primary bg-primary text-primary-foreground' : 'bg-background')}>
          {step.complete && <Check className="size-3" aria-hidden="true" />}
        </span>
      ))}
    </span>
  );
}
