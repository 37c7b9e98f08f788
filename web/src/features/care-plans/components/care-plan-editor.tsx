import { AlertTriangle, CheckCircle2, Mail, Printer, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConflictBanner } from '@/components/conflict-banner';
import { useFormBinder } from '@/components/form/form-binder';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { scrollToFirstInvalid } from '@/components/form/form-section';
import { RecordStatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { UnsavedNotice } from '@/components/unsaved-notice';
import { useClientContext } from '@/features/communications/api/get-client-context';
import { ClientSidePanel } from '@/features/communications/components/client-side-panel';
import { ArchiveLeadButton } from '@/features/leads/components/archive-lead-button';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useApproveCarePlan } from '../api/approve-care-plan';
import { useCarePlan } from '../api/get-care-plan';
import { getCarePlanPrefill } from '../api/get-care-plan-prefill';
import { useCarePlanQuote } from '../api/get-care-plan-quote';
import { usePricingTemplates } from '../api/get-pricing-templates';
import { useSaveCarePlan } from '../api/save-care-plan';
import type { CarePlan, CarePlanForm } from '../api/types';
import { carePlanFormValues, normalizeSchedule } from '../care-plan-form-values';
import { ClientInformationSection, CostSection, ScheduleSection, ServicesSection } from './care-plan-sections';
import { ProposalEmailDialog } from './proposal-email-dialog';

/** Marked required, as the spec's form marks them; the server checks what a save needs. */
const REQUIRED: readonly (keyof CarePlanForm)[] = ['client_name', 'family_contact_name', 'family_contact_email', 'hourly_rate'];

export const UPDATE_MODE_TOAST_MS = 5000;

/** Print, the proposal email and the contract use the stored plan: with unsaved changes they wait. */
export const SAVE_FIRST_TEXT = 'You have unsaved changes. Save them first: Print, Email Marketing Proposal and Generate Contract use the saved care plan, so the family would get the saved version.';

interface CarePlanEditorProps {
  plan: CarePlan | null;
  assessmentId: string | null;
  intakeId: string | null;
  initialForm: CarePlanForm;
  /** The stored plan's values when `initialForm` shows a suggestion on top of them. */
  storedForm?: CarePlanForm;
  updateMode: boolean;
}

export function CarePlanEditor({ plan, assessmentId, intakeId, initialForm, storedForm, updateMode }: CarePlanEditorProps) {
  const navigate = useNavigate();
  const { binder, form, setForm, setErrors, dirty, markSaved, reset } = useFormBinder<CarePlanForm>(initialForm, { required: REQUIRED, baseline: storedForm });
  // `saved` is the version this form edits (a save names it); the status shown follows the
  // live record, so a send or approval made elsewhere appears here at once.
  const [saved, setCurrent] = useState<CarePlan | null>(plan);
  const live = useCarePlan(saved?.id ?? null);
  const current = saved && live.data?.id === saved.id && live.data.version >= saved.version ? { ...live.data, version: saved.version } : saved;
  const [conflict, setConflict] = useState<string | null>(null);
  const [emailOpen, setEmailOpen] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const save = useSaveCarePlan();
  // A change made elsewhere refreshes a form with nothing unsaved, so what it shows (and
  // sends) is the latest plan; a form with unsaved changes keeps its version and gets a 409.
  if (saved && live.data?.id === saved.id && live.data.version > saved.version && !dirty && !save.isPending) {
    reset(carePlanFormValues(live.data));
    setCurrent(live.data);
  }
  const approve = useApproveCarePlan();
  const templates = usePricingTemplates();
  const quote = useCarePlanQuote({ schedule: form.schedule, pricing_template_id: form.pricing_template_id, hourly_rate: form.hourly_rate, services: form.services });
  const figures = quote.data;
  const planAssessmentId = current?.assessment_id ?? assessmentId;
  const planIntakeId = current?.intake_id ?? intakeId;
  const announced = useRef(false);
  const client = useClientContext(planIntakeId);

  useEffect(() => {
    if (updateMode && plan && !announced.current) {
      announced.current = true;
      toast.warning('Update Mode: Assessment Changed', {
        description: 'The assessment was updated. Review the services and schedule, then save the care plan.',
        duration: UPDATE_MODE_TOAST_MS,
      });
    }
  }, [updateMode, plan]);

  const onSave = () => {
    setConflict(null);
    const sent = form;
    save.mutate(
      { existing: saved, assessmentId: planAssessmentId, plan: sent },
      {
        onSuccess: (saved) => {
          toast.success('Care Plan Saved', { description: 'You can now generate the proposal email.' });
          markSaved(sent);
          setCurrent(saved);
          void navigate(`/care-plans/new?care_plan_id=${saved.id}`, { replace: true });
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 409) {
            // The form keeps what was typed; the user reloads the latest version by choice.
            setConflict(error.message);
            toast.error('Error Saving Care Plan', { description: error.message });
            return;
          }
          if (isApiError(error) && Object.keys(error.fields).length > 0) {
            setErrors(error.fields);
            window.setTimeout(() => scrollToFirstInvalid(formRef.current ?? document), 0);
          }
          toast.error('Error Saving Care Plan', { description: isApiError(error) && error.message ? error.message : 'Failed to save care plan' });
        },
      },
    );
  };

  const refreshFromAssessment = async () => {
    if (!planAssessmentId) return;
    setRefreshing(true);
    try {
      const prefill = await getCarePlanPrefill(planAssessmentId);
      setForm((previous) => ({ ...previous, services: [...prefill.plan.services], schedule: normalizeSchedule(prefill.plan.schedule) }));
      toast.success('Services and hours refreshed from the assessment');
    } catch (error) {
      toast.error('Error Loading Assessment', { description: isApiError(error) && error.message ? error.message : 'Failed to load assessment data' });
    } finally {
      setRefreshing(false);
    }
  };

  const onEmail = () => {
    if (!current) {
      toast.error('Error', { description: 'Please save the care plan first before generating an email.' });
      return;
    }
    setEmailOpen(true);
  };

  const showUpdateBanner = updateMode && current !== null;
  // Acting on the stored plan while the form shows something else would send what is not shown.
  const saveFirst = dirty && current !== null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold">Care Plan Proposal</h1>
          <p className="text-sm text-muted-foreground">Services, weekly schedule and cost of care for the family. Fields marked * are required.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            disabled={!current || saveFirst}
            aria-describedby={saveFirst ? 'care-plan-save-first' : undefined}
            onClick={() => current && window.open(`/api/care-plans/${current.id}/pdf`, '_blank', 'noopener')}
          >
            <Printer aria-hidden="true" />
            Print
          </Button>
          <Button variant="outline" disabled={!current || saveFirst} aria-describedby={saveFirst ? 'care-plan-save-first' : undefined} onClick={onEmail}>
            <Mail aria-hidden="true" />
            Email Marketing Proposal
          </Button>
          {current?.status === 'sent' && (
            <Button
              variant="secondary"
              disabled={approve.isPending}
              onClick={() =>
                approve.mutate(current.id, {
                  onSuccess: (approved) => {
                    setCurrent(approved);
                    toast.success('Care Plan Approved', { description: 'The family accepted the proposal. You can now generate the contract.' });
                  },
                })
              }
            >
              <CheckCircle2 aria-hidden="true" />
              Mark Approved
            </Button>
          )}
          {current?.can_generate_contract && (
            <Button
              variant="secondary"
              disabled={saveFirst && !current.contract_id}
              aria-describedby={saveFirst && !current.contract_id ? 'care-plan-save-first' : undefined}
              onClick={() => void navigate(current.contract_id ? `/contracts/new?contract_id=${current.contract_id}` : `/contracts/new?care_plan_id=${current.id}`)}
            >
              {current.contract_id ? 'View Contract' : 'Generate Contract'}
            </Button>
          )}
          {client.data && <ArchiveLeadButton intakeId={client.data.intake.id} clientName={client.data.intake.client_full_name} archived={client.data.intake.position.archived} />}
        </div>
      </div>
      {current && (
        <div role="status" className="flex flex-wrap items-center gap-3 rounded-lg border p-3 text-sm">
          <span className="font-semibold">Status:</span>
          <RecordStatusBadge status={current.status} />
          {current.sent_at && <span>Sent {formatDate(current.sent_at)}</span>}
          {current.approved_at && <span>Approved {formatDate(current.approved_at)}</span>}
        </div>
      )}
      {showUpdateBanner && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border border-warning bg-warning/10 p-3 text-sm">
          <AlertTriangle className="size-4" aria-hidden="true" />
          <div className="flex-1">
            <p className="font-semibold">Update Mode: Assessment Changed</p>
            <p>
              {current.assessment_changed
                ? 'The assessment changed after this care plan was made. Refresh the services and hours from it, review the cost and save.'
                : 'Review the care plan against the assessment and save your changes.'}
            </p>
          </div>
          <Button variant="outline" size="sm" disabled={refreshing || !planAssessmentId} onClick={() => void refreshFromAssessment()}>
            <RefreshCw aria-hidden="true" />
            {refreshing ? 'Refreshing...' : 'Refresh from Assessment'}
          </Button>
        </div>
      )}
      {conflict && <ConflictBanner message={conflict} latestHref={current ? `/care-plans/new?care_plan_id=${current.id}` : null} />}
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <form
          ref={formRef}
          noValidate
          aria-label="Care plan form"
          className="flex min-w-0 flex-1 flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            onSave();
          }}
        >
          <FormErrorSummary error={save.error} fallback="Failed to save care plan" hideConflict />
          <ClientInformationSection binder={binder} />
          <ServicesSection binder={binder} />
          <ScheduleSection binder={binder} totalHours={figures?.total_weekly_hours} />
          <CostSection binder={binder} templates={templates.data?.items ?? []} quote={figures} />
          <div className="sticky bottom-0 flex flex-wrap justify-end gap-2 border-t bg-background py-3">
            {saveFirst && <UnsavedNotice id="care-plan-save-first">{SAVE_FIRST_TEXT}</UnsavedNotice>}
            <Button variant="outline" onClick={() => void navigate('/care-plans')}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Care Plan'}
            </Button>
          </div>
          <Card>
            <CardHeader>
              <CardTitle>Next Step: Generate Proposal Email</CardTitle>
              <CardDescription>
                {current ? 'Write the marketing proposal email for the family; the proposal letter PDF is attached when it is sent.' : 'Save the care plan first, then generate the proposal email.'}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Button type="button" disabled={!current || saveFirst} aria-describedby={saveFirst ? 'care-plan-save-first' : undefined} onClick={onEmail}>
                <Mail aria-hidden="true" />
                Email Marketing Proposal
              </Button>
            </CardContent>
          </Card>
        </form>
        <ClientSidePanel intakeId={planIntakeId} parents={{ ...(planAssessmentId ? { assessment_id: planAssessmentId } : {}), ...(current ? { care_plan_id: current.id } : {}) }} />
      </div>
      {current && <ProposalEmailDialog plan={current} open={emailOpen} onOpenChange={setEmailOpen} onPlanChanged={setCurrent} />}
    </div>
  );
}
