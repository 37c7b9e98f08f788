import { useSearchParams } from 'react-router';
import { Loading } from '@/components/loading';
import { useMe } from '@/features/auth/api/auth';
import { useCarePlan } from '../api/get-care-plan';
import { useCarePlanPrefill } from '../api/get-care-plan-prefill';
import type { CarePlanForm } from '../api/types';
import { carePlanFormValues } from '../care-plan-form-values';
import { CarePlanEditor } from './care-plan-editor';

/** `/care-plans/new` with `care_plan_id` (and `update=true`), `assessment_id`, or nothing. */
export default function CarePlanFormPage() {
  const [params] = useSearchParams();
  const carePlanId = params.get('care_plan_id');
  const assessmentId = params.get('assessment_id');
  const updateMode = params.get('update') === 'true';
  const me = useMe();
  const coordinator = me.data?.full_name ?? '';
  if (carePlanId) return <ExistingCarePlan key={`${carePlanId}-${String(updateMode)}`} carePlanId={carePlanId} updateMode={updateMode} coordinator={coordinator} />;
  if (assessmentId) return <PrefilledCarePlan key={assessmentId} assessmentId={assessmentId} coordinator={coordinator} />;
  return <CarePlanEditor key="blank" plan={null} assessmentId={null} intakeId={null} initialForm={withCoordinator(carePlanFormValues(undefined), coordinator)} updateMode={false} />;
}

/** A new plan's care coordinator is whoever is signed in, unless one is already named. */
function withCoordinator(form: CarePlanForm, coordinator: string): CarePlanForm {
  return form.care_coordinator_name ? form : { ...form, care_coordinator_name: coordinator };
}

function ExistingCarePlan({ carePlanId, updateMode, coordinator }: { carePlanId: string; updateMode: boolean; coordinator: string }) {
  const plan = useCarePlan(carePlanId);
  // A draft generated from an assessment has no pricing template yet: it gets the one the
  // server suggests for that assessment, with its rate, as a new plan would.
  const needsTemplate = plan.data?.status === 'draft' && !plan.data.pricing_template_id && Boolean(plan.data.assessment_id);
  const prefill = useCarePlanPrefill(needsTemplate ? (plan.data?.assessment_id ?? null) : null);
  if (plan.isPending || (needsTemplate && prefill.isPending)) return <Loading text="Loading care plan..." />;
  if (!plan.data) return <p className="text-sm text-muted-foreground">Failed to load care plan</p>;
  const stored = carePlanFormValues(plan.data);
  let initial = stored;
  const suggestion = needsTemplate ? prefill.data?.plan : undefined;
  if (suggestion?.pricing_template_id) {
    // Shown on top of the stored draft, so the form starts unsaved: what the family would
    // get is still the stored plan until it is saved.
    initial = withCoordinator({ ...stored, pricing_template_id: suggestion.pricing_template_id, hourly_rate: suggestion.hourly_rate ?? stored.hourly_rate }, coordinator);
  }
  return (
    <CarePlanEditor plan={plan.data} assessmentId={plan.data.assessment_id ?? null} intakeId={plan.data.intake_id ?? null} initialForm={initial} storedForm={stored} updateMode={updateMode} />
  );
}

function PrefilledCarePlan({ assessmentId, coordinator }: { assessmentId: string; coordinator: string }) {
  const prefill = useCarePlanPrefill(assessmentId);
  if (prefill.isPending) return <Loading text="Loading assessment..." />;
  const data = prefill.data;
  const initial = withCoordinator(carePlanFormValues(data?.plan), coordinator);
  // The server picks the template by the spec's rule (count of recommended services).
  if (data?.suggested_pricing_template_id && !initial.pricing_template_id) initial.pricing_template_id = data.suggested_pricing_template_id;
  return <CarePlanEditor plan={null} assessmentId={assessmentId} intakeId={data?.intake_id ?? null} initialForm={initial} updateMode={false} />;
}
