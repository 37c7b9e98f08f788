import { Check } from 'lucide-react';
import { STAGE_VALUES } from '@/api/options.gen';
import type { Stage } from '@/api/types';
import { stageLabel } from '@/components/status-badge';
import { cn } from '@/lib/cn';

/** Four dots, filled for each step whose record exists. */
export function JourneyIndicator({ done }: { done: readonly Stage[] }) {
  const labels = done.map(stageLabel);
  return (
    <span className="flex items-center gap-1" role="img" aria-label={labels.length ? `Journey: ${labels.join(', ')} done` : 'Journey: not started'}>
      {STAGE_VALUES.map((stage) => {
        const complete = done.includes(stage);
        return (
          <span key={stage} title={stageLabel(stage)} className={cn('flex size-5 items-center justify-center rounded-full border', complete ? 'border-primary bg-primary text-primary-foreground' : 'bg-background')}>
            {complete && <Check className="size-3" aria-hidden="true" />}
          </span>
        );
      })}
    </span>
  );
}
