import { Info } from 'lucide-react';
import { PipelineBadge } from '@/components/status-badge';
import { formatDate, statusText } from '@/lib/format';
import type { Intake } from '../api/types';

export function IntakeStatusBanner({ intake }: { intake: Intake }) {
  return (
    <div role="status" className="flex flex-wrap items-center gap-3 rounded-lg border border-primary/40 bg-accent p-3 text-sm text-accent-foreground">
      <Info className="size-4" aria-hidden="true" />
      <span className="font-semibold">Status: {statusText(intake.is_draft ? 'draft' : intake.status)}</span>
      <PipelineBadge label={intake.pipeline.label} overdue={intake.pipeline.overdue} />
      <span>{intake.pipeline.description}</span>
      <span className="ml-auto text-xs">Created {formatDate(intake.created_at)}</span>
    </div>
  );
}
