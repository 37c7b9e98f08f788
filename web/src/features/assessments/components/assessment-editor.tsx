import { CloudOff, FileSignature, FileText, Printer, RefreshCw, Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConflictBanner } from '@/components/conflict-banner';
import { useFormBinder } from '@/components/form/form-binder';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { scrollToFirstInvalid } from '@/components/form/form-section';
import { RecordStatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { UnsavedNotice } from '@/components/unsaved-notice';
import { ClientSidePanel } from '@/features/communications/components/client-side-panel';
import { isApiError } from '@/lib/api-client';
import { statusText } from '@/lib/format';
import { type DraftMode } from '@/lib/offline/db';
import { draftTarget, removeDraft, saveDraft } from '@/lib/offline/drafts';
import { onSynced, syncNow } from '@/lib/offline/runtime';
import { useGenerateCarePlan } from '../api/generate-care-plan';
import { useAssessment } from '../api/get-assessment';
import { useSaveAssessment, useSaveAssessmentDraft } from '../api/save-assessment';
import type { Assessment, AssessmentForm } from '../api/types';
import { normalizeAssessmentForm, REQUIRED_ASSESSMENT_FIELDS } from '../assessment-form-values';
import { useDeviceDraft } from '../use-device-draft';
import { AssessmentSections } from './assessment-sections';
import { DeviceDraftConflict } from './device-draft-conflict';

/** What the form says while an assessment waits on the device for the network. */
export const SAVED_ON_DEVICE = 'Saved on this device — will sync when online';
/** Added when the care plan was asked for offline. */
const CARE_PLAN_ON_SYNC = 'The care plan will be generated once it has synced.';

interface AssessmentEditorProps {
  assessment: Assessment | null;
  intakeId: string | null;
  initialForm: AssessmentForm;
}

export function AssessmentEditor({ assessment, intakeId, initialForm }: AssessmentEditorProps) {
  const navigate = useNavigate();
  const { binder, form, setErrors, dirty, markSaved, reset } = useFormBinder<AssessmentForm>(initialForm, { required: REQUIRED_ASSESSMENT_FIELDS });
  // The stored version this form edits: a save names it.
  const [record, setCurrent] = useState<Assessment | null>(assessment);
  const [conflict, setConflict] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const save = useSaveAssessment();
  const draft = useSaveAssessmentDraft();
  const generate = useGenerateCarePlan();
  const [deviceBusy, setDeviceBusy] = useState(false);
  const busy = save.isPending || draft.isPending || generate.isPending || deviceBusy;
  // The assessment as saved on this device while offline: shown instead of the server's
  // until it is sent, and the server's version beside it when that changed meanwhile.
  const device = useDeviceDraft(record?.id ?? null, record ? null : intakeId);
  // Status and care plan follow the live record; the version stays the one the form shows.
  const live = useAssessment(record?.id ?? null);
  const newer = record && live.data?.id === record.id && live.data.version > record.version ? live.data : null;
  const current = record && newer ? { ...newer, version: record.version } : record;

  // A change made elsewhere refreshes a form with nothing unsaved; a form with unsaved
  // changes keeps its version, so its save is refused (409) instead of overwriting. One
  // waiting on the device keeps its version too, until it is sent.
  if (newer && !dirty && !busy && device.loaded && !device.draft) {
    reset(normalizeAssessmentForm(newer.form));
    setCurrent(newer);
  }

  const deviceDraft = device.draft;
  const adopted = useRef(false);
  useEffect(() => {
    if (!deviceDraft || adopted.current) return;
    adopted.current = true;
    reset(normalizeAssessmentForm(deviceDraft.form));
  }, [deviceDraft, reset]);
  // A new assessment sent from the device becomes the record this form edits.
  const target = draftTarget(record?.id ?? null, record ? null : intakeId);
  useEffect(
    () =>
      onSynced((_report, saved) => {
        const sent = saved.find((item) => item.target === target);
        if (sent && sent.record.id !== record?.id) void navigate(`/assessments/new?assessment_id=${sent.record.id}`, { replace: true });
      }),
    [target, record?.id, navigate],
  );

  const saveOnDevice = async (mode: DraftMode, sent: AssessmentForm, carePlan?: boolean) => {
    setDeviceBusy(true);
    try {
      // A draft already waiting keeps the version it was based on.
      const baseVersion = deviceDraft ? deviceDraft.baseVersion : (current?.version ?? null);
      const kept = await saveDraft({ assessmentId: current?.id ?? null, intakeId: current ? null : intakeId, baseVersion, mode, form: sent, ...(carePlan ? { carePlan } : {}) });
      if (!kept) {
        toast.error('Not Saved', { description: 'This device cannot keep the assessment: sign in while online first.' });
        return;
      }
      markSaved(sent);
      setConflict(null);
    } finally {
      setDeviceBusy(false);
    }
  };

  const resolveConflict = async (merged: AssessmentForm, server: Assessment) => {
    if (!deviceDraft) return;
    setDeviceBusy(true);
    try {
      await saveDraft({ assessmentId: server.id, intakeId: null, baseVersion: server.version, mode: deviceDraft.mode, form: merged });
      reset(merged);
      setCurrent(server);
      if (navigator.onLine) await syncNow();
    } finally {
      setDeviceBusy(false);
    }
  };

  const body = { ...(intakeId && !current ? { intake_id: intakeId } : {}), form };
  const showServerErrors = (error: unknown) => {
    if (isApiError(error) && error.status === 409) {
      setConflict(error.message);
      return;
    }
    if (isApiError(error) && Object.keys(error.fields).length > 0) {
      setErrors(error.fields);
      window.setTimeout(() => scrollToFirstInvalid(formRef.current ?? document), 0);
    }
  };

  const afterSave = (saved: Assessment, sent: AssessmentForm) => {
    markSaved(sent);
    setCurrent(saved);
    setConflict(null);
    if (deviceDraft) void removeDraft(deviceDraft.target);
  };

  /** Offline (or the server out of reach), a save is kept on the device instead. */
  const unreachable = (error: unknown) => isApiError(error) && error.status === 0;

  const onSave = () => {
    if (!navigator.onLine || deviceDraft) {
      // With one already waiting, this goes after it, in order, once it is kept.
      void saveOnDevice('complete', body.form).then(() => (navigator.onLine ? syncNow() : undefined));
      return;
    }
    save.mutate(
      { existing: current, body },
      {
        onSuccess: (saved) => {
          toast.success('Assessment Saved');
          afterSave(saved, body.form);
          void navigate(`/assessments/new?assessment_id=${saved.id}`, { replace: true });
        },
        onError: (error) => (unreachable(error) ? void saveOnDevice('complete', body.form) : showServerErrors(error)),
      },
    );
  };

  const onDraft = () => {
    if (!navigator.onLine || deviceDraft) {
      // With one already waiting, this goes after it, in order, once it is kept.
      void saveOnDevice('draft', body.form).then(() => (navigator.onLine ? syncNow() : undefined));
      return;
    }
    draft.mutate(
      { existing: current, body },
      {
        onSuccess: (saved) => {
          afterSave(saved, body.form);
          toast.success('Draft Saved');
          void navigate('/assessments');
        },
        onError: (error) => (unreachable(error) ? void saveOnDevice('draft', body.form) : showServerErrors(error)),
      },
    );
  };

  const onGenerate = () => {
    // Offline, or with the assessment still waiting on the device: the plan is asked for
    // with the completed assessment and generated right after the server takes it.
    if (!navigator.onLine || deviceDraft) {
      if (!current && !deviceDraft) {
        toast.error('Save First', { description: 'Save the assessment before generating a care plan.' });
        return;
      }
      void saveOnDevice('complete', deviceDraft ? normalizeAssessmentForm(deviceDraft.form) : form, true).then(() => (navigator.onLine ? syncNow() : undefined));
      return;
    }
    if (!current) {
      toast.error('Save First', { description: 'Save the assessment before generating a care plan.' });
      return;
    }
    generate.mutate(current.id, {
      onSuccess: (plan) => {
        toast.success('Care Plan Created', { description: 'Redirecting to Care Plan' });
        void navigate(`/care-plans/new?care_plan_id=${plan.id}`);
      },
    });
  };

  const carePlanId = current?.care_plan_id ?? null;
  // Print and Generate Care Plan use the stored assessment: with unsaved changes they wait.
  const saveFirst = dirty && current !== null;
  const describedBy = saveFirst ? 'assessment-save-first' : undefined;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold">Non-Medical Assessment Form</h1>
          <p className="text-sm text-muted-foreground">Fields marked * are required to save the assessment.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={!current || saveFirst} aria-describedby={describedBy} onClick={() => current && window.open(`/api/assessments/${current.id}/pdf`, '_blank', 'noopener')}>
            <Printer aria-hidden="true" />
            Print
          </Button>
          {carePlanId ? (
            <>
              <Button variant="outline" onClick={() => void navigate(`/care-plans/new?care_plan_id=${carePlanId}`)}>
                <FileText aria-hidden="true" />
                View Care Plan
              </Button>
              <Button variant="outline" onClick={() => void navigate(`/care-plans/new?care_plan_id=${carePlanId}&update=true`)}>
                <RefreshCw aria-hidden="true" />
                Update Care Plan
              </Button>
              <Button variant="secondary" onClick={() => void navigate(`/contracts/new?care_plan_id=${carePlanId}`)}>
                <FileSignature aria-hidden="true" />
                Generate Contract
              </Button>
            </>
          ) : (
            <Button variant="secondary" onClick={onGenerate} disabled={busy || saveFirst} aria-describedby={describedBy}>
              <Sparkles aria-hidden="true" />
              Generate Care Plan
            </Button>
          )}
        </div>
      </div>
      {deviceDraft?.conflict && <DeviceDraftConflict device={normalizeAssessmentForm(deviceDraft.form)} server={deviceDraft.conflict} busy={busy} onResolve={(merged, server) => void resolveConflict(merged, server)} />}
      {conflict && <ConflictBanner message={conflict} latestHref={current ? `/assessments/new?assessment_id=${current.id}` : null} />}
      {current && (
        <div role="status" className="flex flex-wrap items-center gap-3 rounded-lg border border-primary/40 bg-accent p-3 text-sm text-accent-foreground">
          <span className="font-semibold">Status: {statusText(current.status)}</span>
          <RecordStatusBadge status={current.status} />
          {current.care_plan_status && <span>Care plan: {statusText(current.care_plan_status)}</span>}
        </div>
      )}
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <form
          ref={formRef}
          noValidate
          aria-label="Assessment form"
          className="flex min-w-0 flex-1 flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            onSave();
          }}
        >
          <FormErrorSummary error={save.error ?? draft.error} fallback={save.error ? 'Failed to save assessment' : 'Failed to save draft'} />
          <AssessmentSections binder={binder} />
          <div className="sticky bottom-0 flex flex-wrap justify-end gap-2 border-t bg-background py-3">
            {deviceDraft && !dirty && (
              <p role="status" className="mr-auto flex max-w-prose items-start gap-2 rounded-md border border-primary/40 bg-accent px-3 py-2 text-sm text-accent-foreground">
                <CloudOff className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>
                  {deviceDraft.error ? `Saved on this device — the server refused it: ${deviceDraft.error}` : SAVED_ON_DEVICE}
                  {deviceDraft.carePlan && !deviceDraft.error ? ` ${CARE_PLAN_ON_SYNC}` : ''}
                </span>
              </p>
            )}
            {saveFirst && <UnsavedNotice id="assessment-save-first">You have unsaved changes. Save them first: Print and Generate Care Plan use the saved assessment.</UnsavedNotice>}
            <Button variant="outline" onClick={() => void navigate('/assessments')}>
              Cancel
            </Button>
            {!current && (
              <Button variant="secondary" onClick={onDraft} disabled={busy}>
                {draft.isPending ? 'Saving...' : 'Save as Draft'}
              </Button>
            )}
            <Button type="submit" disabled={busy}>
              {save.isPending ? 'Saving...' : current ? 'Update Assessment' : 'Save Assessment'}
            </Button>
          </div>
        </form>
        <ClientSidePanel intakeId={current?.intake_id ?? intakeId} parents={current ? { assessment_id: current.id } : {}} />
      </div>
    </div>
  );
}
