import { ArrowLeft, FileCheck2, Printer, Send } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConflictBanner } from '@/components/conflict-banner';
import { useFormBinder, bindText } from '@/components/form/form-binder';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { SelectField } from '@/components/form/select-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { UnsavedNotice } from '@/components/unsaved-notice';
import { ClientSidePanel } from '@/features/communications/components/client-side-panel';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { useContract } from '../api/get-contract';
import { useContractPreview } from '../api/get-contract-preview';
import { useSendableCarePlans } from '../api/get-sendable-care-plans';
import { useSaveContract } from '../api/save-contract';
import { CONTRACT_STATUS_LABELS } from '../contract-status';
import { SigningLinkStatus } from '@/features/signing/components';
import { useSignContract } from '../api/sign-contract';
import type { Contract, ContractForm } from '../api/types';
import { SendContractDialog } from './send-contract-dialog';

/** After a save or a send the screen returns to the contracts list. */
export const RETURN_AFTER_SAVE_MS = 3000;

const NEEDS_PREVIEW = 'Please select a care plan and generate a contract preview';
const NEEDS_SENT_PLAN = 'Care plan must be sent or approved before generating a contract.';

export function ContractEditor({ contract, carePlanId }: { contract: Contract | null; carePlanId: string | null }) {
  const navigate = useNavigate();
  const { binder, form, setForm, dirty, markSaved, reset } = useFormBinder<ContractForm>({ care_plan_id: contract?.care_plan_proposal_id ?? carePlanId ?? '', content: contract?.contract_content ?? '' });
  const [saved, setSaved] = useState<Contract | null>(contract);
  const [conflict, setConflict] = useState<string | null>(null);
  const appliedPreview = useRef<string | null>(null);
  // The care plan version the preview text was written from: the contract names it, so a
  // plan changed since then is refused (409) rather than signed with the old text.
  const previewVersion = useRef<number | null>(null);
  const [sendOpen, setSendOpen] = useState(false);
  const returnTimer = useRef<number | undefined>(undefined);
  const live = useContract(saved?.id ?? null);
  // The status shown follows the live record; a save names the version this screen read.
  const current = saved && live.data?.id === saved.id && live.data.version >= saved.version ? { ...live.data, version: saved.version } : saved;
  const plans = useSendableCarePlans();
  const isNew = current === null;
  const preview = useContractPreview(isNew && form.care_plan_id ? form.care_plan_id : null);
  const save = useSaveContract();
  const sign = useSignContract();
  const editable = isNew || current.editable;
  const sendablePlans = plans.data?.items ?? [];
  const chosenPlan = sendablePlans.find((plan) => plan.id === form.care_plan_id) ?? null;
  const planNotSendable = isNew && Boolean(form.care_plan_id) && plans.isSuccess && chosenPlan === null;
  const chosenVersion = chosenPlan?.version ?? null;

  useEffect(() => () => window.clearTimeout(returnTimer.current), []);
  useEffect(() => {
    if (!isNew || !preview.data || appliedPreview.current === preview.data.content) return;
    const content = preview.data.content;
    appliedPreview.current = content;
    previewVersion.current = preview.data.care_plan_version;
    // The preview of the plan the screen was opened for is what it loaded; another plan
    // chosen in the list is a change of the user's.
    if (form.care_plan_id === carePlanId) reset({ care_plan_id: carePlanId, content });
    else setForm((previous) => ({ ...previous, content }));
  }, [isNew, preview.data, setForm, reset, form.care_plan_id, carePlanId, chosenVersion]);

  const returnToList = () => {
    returnTimer.current = window.setTimeout(() => void navigate('/contracts'), RETURN_AFTER_SAVE_MS);
  };

  const check = (): boolean => {
    if (!form.care_plan_id || !form.content.trim()) {
      toast.error('Error', { description: NEEDS_PREVIEW });
      return false;
    }
    if (planNotSendable || (isNew && !chosenPlan)) {
      toast.error('Error', { description: NEEDS_SENT_PLAN });
      return false;
    }
    return true;
  };

  const persist = (then: (contract: Contract) => void) => {
    if (!check()) return;
    setConflict(null);
    const sent = form;
    save.mutate(
      { existing: current, carePlanId: sent.care_plan_id, carePlanVersion: previewVersion.current ?? chosenVersion ?? 0, content: sent.content },
      {
        onSuccess: (result) => {
          markSaved(sent);
          then(result);
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 409) setConflict(error.message);
        },
      },
    );
  };

  const onSaveDraft = () =>
    persist((result) => {
      setSaved(result);
      toast.success(isNew ? 'Contract Saved' : 'Contract Updated', { description: 'Saved as draft. Returning to contracts...' });
      returnToList();
    });

  const onSend = () =>
    persist((result) => {
      setSaved(result);
      setSendOpen(true);
    });

  const onSent = (sent: Contract) => {
    setSaved(sent);
    toast.success('Contract Sent', { description: `Sent to ${sent.family_contact_email} for signature. Returning to contracts...` });
    returnToList();
  };

  const intakeId = current?.intake_id ?? chosenPlan?.intake_id ?? null;
  // Print uses the stored contract; Send Contract saves what is shown before it sends.
  const saveFirst = dirty && current !== null;
  const planOptions = sendablePlans.map((plan) => ({ value: plan.id, label: `${plan.client_name} - ${formatDate(plan.created_at)}` }));
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold">{current ? `Contract - ${current.client_name}` : 'Generate Contract'}</h1>
          <p className="text-sm text-muted-foreground">{current ? 'The service agreement and its signature status.' : 'Generate a service agreement from a sent or approved care plan.'}</p>
        </div>
        {current && (
          <Button
            variant="outline"
            disabled={saveFirst}
            aria-describedby={saveFirst ? 'contract-save-first' : undefined}
            onClick={() => window.open(`/api/contracts/${current.id}/pdf`, '_blank', 'noopener')}
          >
            <Printer aria-hidden="true" />
            Print
          </Button>
        )}
      </div>
      {conflict && <ConflictBanner message={conflict} latestHref={current ? `/contracts/new?contract_id=${current.id}` : chosenPlan ? `/care-plans/new?care_plan_id=${chosenPlan.id}` : null} />}
      {current && <ContractStatusCard contract={current} />}
      {current && !current.editable && <SigningLinkStatus contractId={current.id} />}
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <div className="flex min-w-0 flex-1 flex-col gap-4">
          <FormErrorSummary error={save.error} fallback="Failed to save contract" />
          {isNew && (
            <div className="rounded-lg border p-4">
              <SelectField
                id="care_plan_id"
                label="Approved Care Plans"
                value={form.care_plan_id}
                onChange={(value) => setForm((previous) => ({ ...previous, care_plan_id: value, content: '' }))}
                options={planOptions}
                placeholder={plans.isPending ? 'Loading care plans...' : planOptions.length === 0 ? 'No sent or approved care plans' : 'Select a care plan'}
                error={planNotSendable ? NEEDS_SENT_PLAN : undefined}
                hint="Care plans that were sent to the family or approved by them."
              />
            </div>
          )}
          {(current ?? chosenPlan) && (
            <dl className="grid gap-3 rounded-lg border p-4 text-sm sm:grid-cols-3" aria-label="Pricing">
              <PriceFact label="Hourly Rate" value={formatMoney(current ? current.pricing_details.hourly_rate : chosenPlan?.hourly_rate)} />
              <PriceFact label="Weekly Cost" value={formatMoney(current ? current.pricing_details.weekly_cost : chosenPlan?.weekly_cost)} />
              <PriceFact label="Monthly Cost" value={formatMoney(current ? current.pricing_details.monthly_cost : chosenPlan?.monthly_cost)} />
            </dl>
          )}
          <TextareaField {...bindText(binder, 'content', 'Contract Preview')} rows={20} disabled={!editable} placeholder={preview.isFetching ? 'Generating preview...' : 'Select a care plan to see the contract.'} />
          <div className="sticky bottom-0 flex flex-wrap justify-end gap-2 border-t bg-background py-3">
            {isNew && (
              <>
                <Button variant="outline" onClick={() => void navigate('/contracts')}>
                  Cancel
                </Button>
                <Button variant="secondary" onClick={onSaveDraft} disabled={save.isPending}>
                  {save.isPending ? 'Saving...' : 'Save as Draft'}
                </Button>
                <Button onClick={onSend} disabled={save.isPending}>
                  <Send aria-hidden="true" />
                  Send for Signature
                </Button>
              </>
            )}
            {current?.editable && (
              <>
                {saveFirst && (
                  <UnsavedNotice id="contract-save-first">You have unsaved changes. Print uses the saved contract, so save them first; Send Contract saves them before it sends.</UnsavedNotice>
                )}
                <Button variant="outline" onClick={() => void navigate('/contracts')}>
                  Cancel
                </Button>
                <Button variant="secondary" onClick={onSaveDraft} disabled={save.isPending}>
                  {save.isPending ? 'Saving...' : 'Save Changes'}
                </Button>
                <Button onClick={onSend} disabled={save.isPending}>
                  <Send aria-hidden="true" />
                  Send Contract
                </Button>
              </>
            )}
            {current && !current.editable && (
              <>
                {current.status === 'sent' && (
                  <Button
                    variant="secondary"
                    disabled={sign.isPending}
                    onClick={() => sign.mutate(current.id, { onSuccess: (signed) => { setSaved(signed); toast.success('Contract Signed', { description: `${signed.client_name} is now an active client.` }); } })}
                  >
                    <FileCheck2 aria-hidden="true" />
                    Mark as Signed
                  </Button>
                )}
                <Button variant="outline" onClick={() => void navigate('/contracts')}>
                  <ArrowLeft aria-hidden="true" />
                  Back to Contracts
                </Button>
              </>
            )}
          </div>
        </div>
        <ClientSidePanel intakeId={intakeId} parents={{ ...(form.care_plan_id ? { care_plan_id: form.care_plan_id } : {}), ...(current ? { contract_id: current.id } : {}) }} />
      </div>
      {current && <SendContractDialog contract={current} open={sendOpen} onOpenChange={setSendOpen} onSent={onSent} />}
    </div>
  );
}

function PriceFact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold">{value || '—'}</dd>
    </div>
  );
}

const STATUS_TEXT: Record<string, { title: string; text: (contract: Contract) => string }> = {
  draft: { title: CONTRACT_STATUS_LABELS.draft.toUpperCase(), text: () => 'This contract is a draft. Edit it, save your changes and send it to the family for signature.' },
  sent: { title: CONTRACT_STATUS_LABELS.sent.toUpperCase(), text: (contract) => `Sent for signature on ${formatDate(contract.sent_at)}. This contract is view-only. Major changes require creating a new care plan.` },
  signed: { title: CONTRACT_STATUS_LABELS.signed.toUpperCase(), text: (contract) => `Signed on ${formatDate(contract.signed_at)}. This contract is final. Contact operations for any modifications.` },
};

function ContractStatusCard({ contract }: { contract: Contract }) {
  const status = STATUS_TEXT[contract.status] ?? { title: CONTRACT_STATUS_LABELS[contract.status].toUpperCase(), text: () => 'This contract is closed.' };
  return (
    <div role="status" className="rounded-lg border border-primary/40 bg-accent p-4 text-accent-foreground">
      <p className="text-sm font-bold tracking-wide">{status.title}</p>
      <p className="text-sm">{status.text(contract)}</p>
    </div>
  );
}
