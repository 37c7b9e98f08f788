import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Loading } from '@/components/loading';
import { useMe } from '@/features/auth/api/auth';
import { useAssessment } from '../api/get-assessment';
import { usePrefill } from '../api/get-assessment-prefill';
import type { AssessmentForm } from '../api/types';
import { normalizeAssessmentForm } from '../assessment-form-values';
import { AssessmentEditor } from './assessment-editor';

export default function AssessmentFormPage() {
  const [params] = useSearchParams();
  const assessmentId = params.get('assessment_id');
  const intakeId = params.get('intake_id');
  const me = useMe();
  const staff = me.data?.full_name ?? '';
  if (assessmentId) return <ExistingAssessment key={assessmentId} assessmentId={assessmentId} />;
  if (intakeId) return <PrefilledAssessment key={intakeId} intakeId={intakeId} staff={staff} />;
  return <AssessmentEditor key="blank" assessment={null} intakeId={null} initialForm={withStaff(normalizeAssessmentForm(undefined), staff)} />;
}

/** A new assessment is made by whoever is signed in, unless the form already names someone. */
function withStaff(form: AssessmentForm, staff: string): AssessmentForm {
  return { ...form, coordinatorName: form.coordinatorName || staff, assessorName: form.assessorName || staff };
}

function useAnnounceOnce(ready: boolean, announce: () => void) {
  const done = useRef(false);
  useEffect(() => {
    if (ready && !done.current) {
      done.current = true;
      announce();
    }
  }, [ready, announce]);
}

function ExistingAssessment({ assessmentId }: { assessmentId: string }) {
  const assessment = useAssessment(assessmentId);
  const data = assessment.data;
  useAnnounceOnce(Boolean(data), () =>
    toast.success('Assessment Loaded', { description: data?.status === 'completed' ? 'Viewing completed assessment. You can edit and update.' : 'Resuming draft assessment.' }),
  );
  if (assessment.isPending) return <Loading text="Loading assessment..." />;
  if (!data) return <p className="text-sm text-muted-foreground">Failed to load assessment</p>;
  return <AssessmentEditor assessment={data} intakeId={data.intake_id ?? null} initialForm={normalizeAssessmentForm(data.form)} />;
}

function PrefilledAssessment({ intakeId, staff }: { intakeId: string; staff: string }) {
  const prefill = usePrefill(intakeId);
  useAnnounceOnce(Boolean(prefill.data), () => toast.success('Intake Data Loaded', { description: 'Pre-filled from intake form. Review and complete assessment.' }));
  if (prefill.isPending) return <Loading text="Loading intake data..." />;
  return <AssessmentEditor assessment={null} intakeId={intakeId} initialForm={withStaff(normalizeAssessmentForm(prefill.data), staff)} />;
}
