import { ArrowLeft, ClipboardCheck, Printer } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useFormBinder } from '@/components/form/form-binder';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { scrollToFirstInvalid } from '@/components/form/form-section';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ClientContextPanel } from '@/features/communications/components/client-context-panel';
import { CommunicationTimeline } from '@/features/communications/components/communication-timeline';
import { ManageContactsButton } from '@/features/contacts/components/contacts-dialog';
import { isApiError } from '@/lib/api-client';
import { todayIso } from '@/lib/date-rules';
import { useClientJourney } from '../api/get-client-journey';
import { useSaveIntakeDraft, useSubmitIntake } from '../api/save-intake';
import type { Intake, IntakeForm } from '../api/types';
import { COPIED_WHEN_CLIENT_IS_CALLER, missingFieldsToast, missingRequiredFields, normalizeIntakeForm, REQUIRED_FIELDS, setIntakeField } from '../intake-rules';
import { IntakeSavedDialog } from './intake-saved-dialog';
import { IntakeSections } from './intake-sections';
import { IntakeStatusBanner } from './intake-status-banner';
import { PipelineProgress } from './pipeline-progress';

/** After a save the app returns to the clients list after 3 seconds. */
export const RETURN_AFTER_SAVE_MS = 3000;

export function IntakeEditor({ intake, readOnly }: { intake: Intake | null; readOnly: boolean }) {
  const navigate = useNavigate();
  const { binder, form, setErrors } = useFormBinder<IntakeForm>(() => normalizeIntakeForm(intake?.form ?? {}, todayIso()), {
    required: REQUIRED_FIELDS,
    readOnly,
    disabled: (values, field) => values.clientIsCaller && COPIED_WHEN_CLIENT_IS_CALLER.includes(field),
    apply: setIntakeField,
  });
  const [saved, setSaved] = useState<Intake | null>(null);
  // Print and Manage Contacts need a stored intake: before the first save they save a draft.
  const [draftSaved, setDraftSaved] = useState<Intake | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const returnTimer = useRef<number | undefined>(undefined);
  const submit = useSubmitIntake();
  const draft = useSaveIntakeDraft();
  const current = saved ?? draftSaved ?? intake;
  const journey = useClientJourney(current?.id ?? null);

  useEffect(() => () => window.clearTimeout(returnTimer.current), []);

  const showServerErrors = (error: unknown) => {
    if (isApiError(error) && Object.keys(error.fields).length > 0) {
      setErrors(error.fields);
      window.setTimeout(() => scrollToFirstInvalid(formRef.current ?? document), 0);
    }
  };

  const onSubmit = () => {
    const missing = missingRequiredFields(form);
    const count = Object.keys(missing).length;
    if (count > 0) {
      setErrors(missing);
      const message = missingFieldsToast(count);
      toast.error(message.title, { description: message.description });
      window.setTimeout(() => scrollToFirstInvalid(formRef.current ?? document), 0);
      return;
    }
    submit.mutate(
      { id: current?.id ?? null, version: current?.version ?? null, body: { form } },
      {
        onSuccess: (result) => {
          toast.success(current && !current.is_draft ? 'Intake Updated Successfully' : 'Intake Saved Successfully');
          setSaved(result);
          returnTimer.current = window.setTimeout(() => void navigate('/clients'), RETURN_AFTER_SAVE_MS);
        },
        onError: showServerErrors,
      },
    );
  };

  const onDraft = () => {
    draft.mutate(
      { id: current?.id ?? null, version: current?.version ?? null, body: { form } },
      {
        onSuccess: () => {
          toast.success('Draft Saved');
          void navigate('/dashboard');
        },
        onError: showServerErrors,
      },
    );
  };

  /** The stored intake's id, saving the form as a draft first when it was never saved. */
  const ensureSaved = async (): Promise<string | null> => {
    if (current) return current.id;
    try {
      const stored = await draft.mutateAsync({ id: null, version: null, body: { form } });
      setDraftSaved(stored);
      toast.success('Draft Saved', { description: 'The intake was saved as a draft so it can be printed and given contacts.' });
      return stored.id;
    } catch (error) {
      showServerErrors(error);
      return null;
    }
  };

  const onPrint = async () => {
    // Opened before the save so the browser counts it as the click's own window.
    const printWindow = current ? null : window.open('', '_blank');
    const id = await ensureSaved();
    if (!id) {
      printWindow?.close();
      return;
    }
    const url = `/api/intakes/${id}/pdf`;
    if (printWindow) {
      printWindow.opener = null;
      printWindow.location.href = url;
    } else {
      window.open(url, '_blank', 'noopener');
    }
  };

  const leaveTo = (to: string) => {
    window.clearTimeout(returnTimer.current);
    void navigate(to);
  };

  const busy = submit.isPending || draft.isPending;
  const contact = {
    parents: { intake_id: current?.id },
    clientName: form.clientFullName || current?.client_full_name || '',
    email: form.clientEmail || form.callerEmail,
    phone: form.clientPhone || form.callerPhone,
  };
  const hasAssessment = Boolean(current?.position.latest_assessment_id);

  return (
    <div className="flex flex-col gap-4">
      <Link to="/clients" className="flex w-fit items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Clients
      </Link>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold">{readOnly ? 'View Intake' : current ? 'Edit Intake' : 'New Client Intake'}</h1>
          <p className="text-sm text-muted-foreground">Client intake form. Fields marked * are required.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => void onPrint()} disabled={readOnly && !current}>
            <Printer aria-hidden="true" />
            Print Form
          </Button>
          <ManageContactsButton intakeId={current?.id ?? null} clientName={contact.clientName} ensureIntake={readOnly ? undefined : ensureSaved} />
          {/* A submitted intake is stored as pending (the spec's intake_created): any saved, open intake without an assessment offers it. */}
          {current && !current.is_draft && !current.position.archived && !hasAssessment && (
            <Button variant="secondary" onClick={() => leaveTo(`/assessments/new?intake_id=${current.id}`)}>
              <ClipboardCheck aria-hidden="true" />
              Schedule Assessment
            </Button>
          )}
          {current && hasAssessment && (
            <Button variant="secondary" onClick={() => leaveTo('/assessments')}>
              <ClipboardCheck aria-hidden="true" />
              View Assessment
            </Button>
          )}
        </div>
      </div>
      {current && <IntakeStatusBanner intake={current} />}
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <form
          ref={formRef}
          noValidate
          aria-label="Intake form"
          className="flex min-w-0 flex-1 flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!readOnly) onSubmit();
          }}
        >
          <FormErrorSummary error={submit.error ?? draft.error} fallback={submit.error ? 'Failed to save intake form' : 'Failed to save draft'} />
          <IntakeSections binder={binder} />
          <div className="sticky bottom-0 flex flex-wrap justify-end gap-2 border-t bg-background py-3">
            <Button variant="outline" onClick={() => leaveTo('/')}>
              Cancel
            </Button>
            {readOnly ? (
              current && (
                <Button onClick={() => leaveTo(`/intake?intake_id=${current.id}`)}>Edit Intake</Button>
              )
            ) : (
              <>
                <Button variant="secondary" onClick={onDraft} disabled={busy}>
                  {draft.isPending ? 'Saving...' : 'Save as Draft'}
                </Button>
                <Button type="submit" disabled={busy}>
                  {submit.isPending ? 'Saving...' : current && !current.is_draft ? 'Update Intake' : 'Submit Intake'}
                </Button>
              </>
            )}
          </div>
        </form>
        <div className="flex w-full flex-col gap-4 lg:w-80">
          {current && journey.data ? (
            <ClientContextPanel contact={contact} age={journey.data.intake.age ?? null} journey={journey.data.journey} clientId={current.id} />
          ) : (
            <PipelineProgress />
          )}
          {current && (
            <Card>
              <CardHeader>
                <CardTitle>Communication History</CardTitle>
              </CardHeader>
              <CardContent>
                <CommunicationTimeline contact={contact} />
              </CardContent>
            </Card>
          )}
        </div>
      </div>
      <IntakeSavedDialog
        open={saved !== null}
        onDashboard={() => leaveTo('/')}
        onScheduleAssessment={() => saved && leaveTo(`/assessments/new?intake_id=${saved.id}`)}
      />
    </div>
  );
}
