import { ArrowLeft, ClipboardCheck, Printer } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConflictBanner } from '@/components/conflict-banner';
import { useFormBinder } from '@/components/form/form-binder';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { scrollToFirstInvalid } from '@/components/form/form-section';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { UnsavedNotice } from '@/components/unsaved-notice';
import { ClientContextPanel } from '@/features/communications/components/client-context-panel';
import { CommunicationTimeline } from '@/features/communications/components/communication-timeline';
import { useMe } from '@/features/auth/api/auth';
import { ManageContactsButton } from '@/features/contacts/components/contacts-dialog';
import { ClientVisitsCard } from '@/features/visits/components/client-visits';
import { ScheduleVisitButton, ScheduleVisitDialog } from '@/features/visits/components/schedule-visit-dialog';
import { visitDefaultsFromIntake } from '@/features/visits/visit-dates';
import { isApiError } from '@/lib/api-client';
import { todayIso } from '@/lib/date-rules';
import { readLocalDraft, removeLocalDraft, writeLocalDraft, type LocalDraft } from '@/lib/local-drafts';
import { useClientJourney } from '../api/get-client-journey';
import { useIntake } from '../api/get-intake';
import { useSaveIntakeDraft, useSubmitIntake } from '../api/save-intake';
import type { Intake, IntakeForm } from '../api/types';
import { COPIED_WHEN_CLIENT_IS_CALLER, missingFieldsToast, missingRequiredFields, normalizeIntakeForm, REQUIRED_FIELDS, setIntakeField } from '../intake-rules';
import { IntakeDraftBanner } from './intake-draft-banner';
import { IntakeSavedDialog } from './intake-saved-dialog';
import { IntakeSections } from './intake-sections';
import { IntakeStatusBanner } from './intake-status-banner';
import { PipelineProgress } from './pipeline-progress';

/** After a save the app returns to the clients list after 3 seconds. */
export const RETURN_AFTER_SAVE_MS = 3000;

/** The name a new intake's typing is kept under in this browser (see lib/local-drafts). */
const LOCAL_DRAFT = 'new-intake';

export function IntakeEditor({ intake, readOnly }: { intake: Intake | null; readOnly: boolean }) {
  const navigate = useNavigate();
  const me = useMe();
  const userId = me.data?.id ?? null;
  const { binder, form, setForm, setErrors, dirty, markSaved, reset } = useFormBinder<IntakeForm>(
    () => {
      const values = normalizeIntakeForm(intake?.form ?? {}, todayIso());
      // A new intake is taken by whoever is signed in, unless they say otherwise.
      if (!intake && !values.staffMemberTakingCall) values.staffMemberTakingCall = me.data?.full_name ?? '';
      // ... and, unless they name a colleague, they own it: it joins their Today.
      if (!intake && !values.assignedCoordinator) values.assignedCoordinator = me.data?.full_name ?? '';
      return values;
    },
    {
      required: REQUIRED_FIELDS,
      readOnly,
      disabled: (values, field) => values.clientIsCaller && COPIED_WHEN_CLIENT_IS_CALLER.includes(field),
      apply: setIntakeField,
      // Leaving on purpose throws the typing away, the copy kept in this browser included.
      onDiscard: () => {
        if (userId) removeLocalDraft(userId, LOCAL_DRAFT);
      },
    },
  );
  const [saved, setSaved] = useState<Intake | null>(null);
  // The intake whose assessment visit is being booked from the saved dialog.
  const [visitFor, setVisitFor] = useState<Intake | null>(null);
  // The stored version this form edits: a save names it. Print and Manage Contacts need a
  // stored intake, so before the first save they save a draft.
  const [record, setRecord] = useState<Intake | null>(intake);
  const [conflict, setConflict] = useState<string | null>(null);
  const [restorable, setRestorable] = useState<LocalDraft<IntakeForm> | null>(() => (!intake && !readOnly && userId ? readLocalDraft<IntakeForm>(userId, LOCAL_DRAFT) : null));
  const formRef = useRef<HTMLFormElement>(null);
  const returnTimer = useRef<number | undefined>(undefined);
  const submit = useSubmitIntake();
  const draft = useSaveIntakeDraft();
  const busy = submit.isPending || draft.isPending;
  // Status, stage and assessment follow the live record; the version stays the one the form shows.
  const live = useIntake(record?.id ?? null);
  const newer = record && live.data?.id === record.id && live.data.version > record.version ? live.data : null;
  const current = record && newer ? { ...newer, version: record.version } : record;
  const journey = useClientJourney(current?.id ?? null);

  useEffect(() => () => window.clearTimeout(returnTimer.current), []);

  // A change made elsewhere refreshes a form with nothing unsaved; a form with unsaved
  // changes keeps its version, so its save is refused (409) instead of overwriting.
  if (newer && !dirty && !busy) {
    reset(normalizeIntakeForm(newer.form, todayIso()));
    setRecord(newer);
  }

  // A new intake's typing is kept in this browser until it is saved. Written as each
  // change is committed (a layout effect): a passive effect may still be waiting when the
  // tab is reloaded or closed right after the last keystroke, and that keystroke is lost.
  const keepsLocalDraft = !readOnly && record === null && userId !== null && restorable === null;
  useLayoutEffect(() => {
    if (!keepsLocalDraft) return;
    if (dirty) writeLocalDraft(userId, LOCAL_DRAFT, form);
    else removeLocalDraft(userId, LOCAL_DRAFT);
  }, [keepsLocalDraft, dirty, form, userId]);

  const afterSave = (stored: Intake, sent: IntakeForm) => {
    markSaved(sent);
    setRecord(stored);
    setConflict(null);
    if (userId) removeLocalDraft(userId, LOCAL_DRAFT);
  };

  const showServerErrors = (error: unknown) => {
    if (isApiError(error) && error.status === 409) {
      // Nothing is overwritten: the form keeps what was typed, the user reads the latest version.
      setConflict(error.message);
      return;
    }
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
    const sent = form;
    submit.mutate(
      { id: current?.id ?? null, version: current?.version ?? null, body: { form: sent } },
      {
        onSuccess: (result) => {
          toast.success(current && !current.is_draft ? 'Intake Updated Successfully' : 'Intake Saved Successfully');
          afterSave(result, sent);
          setSaved(result);
          returnTimer.current = window.setTimeout(() => void navigate('/clients'), RETURN_AFTER_SAVE_MS);
        },
        onError: showServerErrors,
      },
    );
  };

  const onDraft = () => {
    const sent = form;
    draft.mutate(
      { id: current?.id ?? null, version: current?.version ?? null, body: { form: sent } },
      {
        onSuccess: (result) => {
          afterSave(result, sent);
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
    const sent = form;
    try {
      const stored = await draft.mutateAsync({ id: null, version: null, body: { form: sent } });
      afterSave(stored, sent);
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

  const contact = {
    parents: { intake_id: current?.id },
    clientName: form.clientFullName || current?.client_full_name || '',
    email: form.clientEmail || form.callerEmail,
    phone: form.clientPhone || form.callerPhone,
  };
  const assessmentId = current?.position.latest_assessment_id ?? null;
  const hasAssessment = Boolean(assessmentId);
  // Print Form prints the stored intake; a new one is saved as a draft first.
  const saveFirst = dirty && current !== null;

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
          <Button variant="outline" onClick={() => void onPrint()} disabled={(readOnly && !current) || saveFirst} aria-describedby={saveFirst ? 'intake-save-first' : undefined}>
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
          {current && !current.is_draft && !current.position.archived && !hasAssessment && (
            <ScheduleVisitButton intakeId={current.id} clientName={contact.clientName} defaults={visitDefaultsFromIntake(form, todayIso())} />
          )}
          {current && hasAssessment && (
            <Button variant="secondary" onClick={() => leaveTo(assessmentId ? `/assessments/new?assessment_id=${assessmentId}` : '/assessments')}>
              <ClipboardCheck aria-hidden="true" />
              View Assessment
            </Button>
          )}
        </div>
      </div>
      {current && <IntakeStatusBanner intake={current} />}
      {restorable && (
        <IntakeDraftBanner
          savedAt={restorable.savedAt}
          onRestore={() => {
            setForm(normalizeIntakeForm(restorable.values, todayIso()));
            setRestorable(null);
          }}
          onDiscard={() => {
            if (userId) removeLocalDraft(userId, LOCAL_DRAFT);
            setRestorable(null);
          }}
        />
      )}
      {conflict && <ConflictBanner message={conflict} latestHref={current ? `/intake?intake_id=${current.id}` : null} />}
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
            {saveFirst && <UnsavedNotice id="intake-save-first">You have unsaved changes. Save them first: Print Form prints the saved intake.</UnsavedNotice>}
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
          {current && !current.is_draft && (
            <ClientVisitsCard intakeId={current.id} clientName={contact.clientName} defaults={visitDefaultsFromIntake(form, todayIso())} canSchedule={false} />
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
      {visitFor && (
        <ScheduleVisitDialog
          intakeId={visitFor.id}
          clientName={contact.clientName}
          defaults={visitDefaultsFromIntake(form, todayIso())}
          open
          onOpenChange={(open) => {
            if (!open) setVisitFor(null);
          }}
        />
      )}
      <IntakeSavedDialog
        open={saved !== null}
        onDashboard={() => leaveTo('/')}
        onScheduleAssessment={() => saved && leaveTo(`/assessments/new?intake_id=${saved.id}`)}
        onScheduleVisit={() => {
          // Booking the visit here replaces the return to the clients list.
          window.clearTimeout(returnTimer.current);
          setVisitFor(saved);
          setSaved(null);
        }}
        onOpenAssessment={saved?.position.latest_assessment_id ? () => leaveTo(`/assessments/new?assessment_id=${saved.position.latest_assessment_id ?? ''}`) : null}
      />
    </div>
  );
}
