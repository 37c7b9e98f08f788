import { useSearchParams } from 'react-router';
import { Loading } from '@/components/loading';
import { useCarePlan } from '../api/get-care-plan';
import { useCarePlanPrefill } from '../api/get-care-plan-prefill';
import { carePlanFormValues } from '../care-plan-form-values';
import { CarePlanEditor } from './care-plan-editor';

/** `/care-plans/new` with `care_plan_id` (and `update=true`), `assessment_id`, or nothing. */
export default function CarePlanFormPage() {
  const [params] = useSearchParams();
  const carePlanId = params.get('care_plan_id');
  const assessmentId = params.get('assessment_id');
  const updateMode = params.get('update') === 'true';
  if (carePlanId) return <ExistingCarePlan key={`${carePlanId}-${String(updateMode)}`} carePlanId={carePlanId} updateMode={updateMode} />;
  if (assessmentId) return <PrefilledCarePlan key={assessmentId} assessmentId={assessmentId} />;
  return <CarePlanEditor key="blank" plan={null} assessmentId={null} intakeId={null} initialForm={carePlanFormValues(undefined)} updateMode={false} />;
}

function ExistingCarePlan({ carePlanId, updateMode }: { carePlanId: string; updateMode: boolean }) {
  const plan = useCarePlan(carePlanId);
  if (plan.isPending) return <Loading text="Loading care plan..." />;
  if (!plan.data) return <p className="text-sm text-muted-foreground">Failed to load care plan</p>;
  // The form shows the stored plan as it is: a generated plan already carries the
  // template the server picked, so what is on screen is what a send would carry.
  const initial = carePlanFormValues(plan.data);
  return <CarePlanEditor plan={plan.data} assessmentId={plan.data.assessment_id ?? null} intakeId={plan.data.intake_id ?? null} initialForm={initial} updateMode={updateMode} />;
}

function PrefilledCarePlan({ assessmentId }: { assessmentId: string }) {
  const prefill = useCarePlanPrefill(assessmentId);
  if (prefill.isPending) return <Loading text="Loading assessment..." />;
  const data = prefill.data;
  const initial = carePlanFormValues(data?.plan);
  // The server picks the template by the spec's rule (count of recommended services).
  if (data?.suggested_pricing_template_id && !initial.pricing_template_id) initial.pricing_template_id = data.suggested_pricing_template_id;
  return <CarePlanEditor plan={null} assessmentId={assessmentId} intakeId={data?.intake_id ?? null} initialForm={initial} updateMode={false} />;
}
