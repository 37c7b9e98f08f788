import { Check } from 'lucide-react';
import { cn } from '@/lib/cn';

const STEPS = ['Intake', 'Assessment', 'Care Plan', 'Contract'];

/** A new intake's place in the pipeline: at the intake stage. */
export function PipelineProgress() {
  return (
    <aside aria-label="Pipeline progress" className="flex w-full shrink-0 flex-col gap-3 rounded-lg border p-4 lg:w-80">
      <h2 className="font-semibold">Pipeline Progress</h2>
      <ol className="flex flex-col gap-2">
        {STEPS.map((step, index) => (
          <li key={step} className="flex items-center gap-2 text-sm" aria-current={index === 0 ? 'step' : undefined}>
            <span className={cn('flex size-6 items-center justify-center rounded-full border text-xs', index === 0 && 'border-primary bg-primary text-primary-foreground')}>
              {index === 0 ? <Check className="size-3" aria-hidden="true" /> : index + 1}
            </span>
            <span className={cn(index === 0 ? 'font-medium' : 'text-muted-foreground')}>{step}</span>
          </li>
        ))}
      </ol>
      <p className="text-xs text-muted-foreground">Save the intake to schedule its assessment.</p>
    </aside>
  );
}
