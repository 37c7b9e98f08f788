import { AlertTriangle } from 'lucide-react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { titleCase } from '@/lib/format';

/** The derived pipeline status; destructive, with a warning icon, when the server flagged it overdue. */
export function PipelineBadge({ label, overdue }: { label: string; overdue: boolean }) {
  return (
    <Badge variant={overdue ? 'destructive' : 'secondary'}>
      {overdue && <AlertTriangle className="size-3" aria-hidden="true" />}
      {label}
    </Badge>
  );
}

const COMMUNICATION_VARIANTS: Record<string, BadgeVariant> = {
  sent: 'default',
  delivered: 'default',
  pending: 'secondary',
  failed: 'destructive',
};

export function CommunicationStatusBadge({ status }: { status: string }) {
  return <Badge variant={COMMUNICATION_VARIANTS[status] ?? 'outline'}>{titleCase(status)}</Badge>;
}

const RECORD_VARIANTS: Record<string, BadgeVariant> = {
  draft: 'secondary',
  pending: 'secondary',
  intake_created: 'secondary',
  completed: 'default',
  assessment_completed: 'default',
  sent: 'warning',
  approved: 'default',
  signed: 'default',
  declined: 'destructive',
  not_interested: 'destructive',
  not_proceeding: 'destructive',
  rejected: 'destructive',
  cancelled: 'destructive',
};

/** A record's status; `label` when the record's feature names the status its own way. */
export function RecordStatusBadge({ status, label }: { status: string; label?: string }) {
  return <Badge variant={RECORD_VARIANTS[status] ?? 'outline'}>{label ?? titleCase(status)}</Badge>;
}

const STAGE_LABELS: Record<string, string> = {
  intake: 'Intake',
  assessment: 'Assessment',
  care_plan: 'Care Plan',
  contract: 'Contract',
};

export function stageLabel(stage: string): string {
  return STAGE_LABELS[stage] ?? titleCase(stage);
}

export function StageBadge({ stage, overdue = false, archived = false }: { stage: string; overdue?: boolean; archived?: boolean }) {
  if (archived) return <Badge variant="outline">Archived</Badge>;
  return <Badge variant={overdue ? 'destructive' : 'secondary'}>{stageLabel(stage)}</Badge>;
}
