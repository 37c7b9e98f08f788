import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { IntakeSummary } from '@/api/types';
import { RecordStatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { ManageContactsButton } from '@/features/contacts/components/contacts-dialog';
import { ageText, formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import type { ClientProfile } from '../api/types';

function Facts({ children }: { children: ReactNode }) {
  return <dl className="grid gap-x-6 gap-y-3 rounded-lg border p-4 text-sm sm:grid-cols-2">{children}</dl>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children || '—'}</dd>
    </div>
  );
}

export function OverviewTab({ intake }: { intake: IntakeSummary }) {
  return (
    <Facts>
      <Fact label="Full Name">{intake.client_full_name}</Fact>
      <Fact label="Date of Birth">{intake.date_of_birth ? `${formatDate(intake.date_of_birth)} (age ${ageText(intake.age)})` : ''}</Fact>
      <Fact label="Phone">{intake.caller_phone}</Fact>
      <Fact label="Email">{intake.caller_email}</Fact>
      <Fact label="Services Required">{intake.services_required.join(', ')}</Fact>
      <Fact label="Follow-up Notes">{intake.follow_up_notes}</Fact>
    </Facts>
  );
}

export function AssessmentTab({ profile }: { profile: ClientProfile }) {
  const { assessment, intake } = profile;
  if (!assessment) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
        <p className="text-muted-foreground">No assessment yet.</p>
        <Button asChild>
          <Link to={`/assessments/new?intake_id=${intake.id}`}>Create Assessment</Link>
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <Facts>
        <Fact label="Status">
          <RecordStatusBadge status={assessment.status} />
        </Fact>
        <Fact label="Assessment Date">{formatDate(assessment.assessment_date)}</Fact>
        <Fact label="Recommended Services">{assessment.recommended_services.join(', ')}</Fact>
        <Fact label="Recommended Hours per Week">{assessment.recommended_hours ?? ''}</Fact>
      </Facts>
      <Button asChild variant="outline" className="w-fit">
        <Link to={`/assessments/new?assessment_id=${assessment.id}`}>View Full Assessment</Link>
      </Button>
    </div>
  );
}

export function CarePlanTab({ profile }: { profile: ClientProfile }) {
  const { care_plan: carePlan, assessment } = profile;
  if (!carePlan) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
        <p className="text-muted-foreground">No care plan yet.</p>
        {assessment && (
          <Button asChild>
            <Link to={`/care-plans/new?assessment_id=${assessment.id}`}>Create Care Plan</Link>
          </Button>
        )}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <Facts>
        <Fact label="Status">
          <RecordStatusBadge status={carePlan.status} />
        </Fact>
        <Fact label="Monthly Cost">{formatMoney(carePlan.monthly_cost)}</Fact>
        <Fact label="Services">{carePlan.service_labels.join(', ')}</Fact>
      </Facts>
      <Button asChild variant="outline" className="w-fit">
        <Link to={`/care-plans/new?care_plan_id=${carePlan.id}`}>View Full Care Plan</Link>
      </Button>
    </div>
  );
}

export function ContactsTab({ profile }: { profile: ClientProfile }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
      <p className="text-muted-foreground">Family and emergency contacts of {profile.intake.client_full_name}.</p>
      <ManageContactsButton intakeId={profile.intake.id} clientName={profile.intake.client_full_name} />
    </div>
  );
}
