import { useState } from 'react';
import { toast } from 'sonner';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useMe } from '@/features/auth/api/auth';
import { errorMessage } from '@/lib/api-client';
import { useDeletePricingTemplate, useSavePricingTemplate, type PricingTemplate, type PricingTemplateInput } from '../api/pricing';

export const REQUIRED_MESSAGE = 'Please fill in template name and base rate';

/** What the dialog opens with: an existing template to edit, or values for a new one. */
export type DialogTarget = { existing: PricingTemplate } | { draft: PricingTemplateInput };

export function inputOf(template: PricingTemplate): PricingTemplateInput {
  return {
    name: template.name,
    base_rate: template.base_rate,
    premiums: { ...template.premiums },
    is_active: template.is_active,
    is_default: template.is_default,
    notes: template.notes ?? '',
  };
}

export const EMPTY_TEMPLATE: PricingTemplateInput = {
  name: '',
  base_rate: null,
  premiums: { weekend: 0, evening: 0, overnight: 0, holiday_multiplier: 1.5 },
  is_active: true,
  is_default: false,
  notes: '',
};

const number = (text: string): number => (text.trim() === '' ? 0 : Number(text));

export function PricingTemplateDialog({ target, onClose }: { target: DialogTarget; onClose: () => void }) {
  const existing = 'existing' in target ? target.existing : undefined;
  const [values, setValues] = useState<PricingTemplateInput>('existing' in target ? inputOf(target.existing) : target.draft);
  const [baseRateText, setBaseRateText] = useState(values.base_rate == null ? '' : String(values.base_rate));
  const [error, setError] = useState('');
  const save = useSavePricingTemplate();
  const remove = useDeletePricingTemplate();
  // A deletion cannot be undone: the server allows it to administrators only.
  const isAdmin = useMe().data?.is_admin === true;
  const setPremium = (key: keyof PricingTemplateInput['premiums'], text: string) =>
    setValues((current) => ({ ...current, premiums: { ...current.premiums, [key]: number(text) } }));

  const submit = () => {
    const baseRate = baseRateText.trim() === '' ? null : Number(baseRateText);
    if (values.name.trim() === '' || baseRate === null || Number.isNaN(baseRate)) {
      setError(REQUIRED_MESSAGE);
      return;
    }
    setError('');
    save.mutate(
      { existing, template: { ...values, base_rate: baseRate } },
      {
        onSuccess: () => {
          toast.success(existing ? 'Template updated successfully' : 'Template created successfully');
          onClose();
        },
        onError: (failure) => toast.error('Error', { description: errorMessage(failure, 'Failed to save template') }),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{existing ? 'Edit Pricing Template' : 'New Pricing Template'}</DialogTitle>
          <DialogDescription>Rates are per hour; premiums are added to the base rate.</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField id="template-name" label="Template Name" required value={values.name} onChange={(name) => setValues({ ...values, name })} />
          <TextField id="base-rate" label="Base Hourly Rate ($)" required type="number" step={0.5} min={0} value={baseRateText} onChange={setBaseRateText} />
          <div className="grid grid-cols-2 gap-3">
            <TextField id="weekend-premium" label="Weekend Premium ($)" type="number" step={0.5} min={0} value={String(values.premiums.weekend)} onChange={(text) => setPremium('weekend', text)} />
            <TextField id="evening-premium" label="Evening Premium ($)" type="number" step={0.5} min={0} value={String(values.premiums.evening)} onChange={(text) => setPremium('evening', text)} />
            <TextField id="overnight-premium" label="Overnight Premium ($)" type="number" step={0.5} min={0} value={String(values.premiums.overnight)} onChange={(text) => setPremium('overnight', text)} />
            <TextField
              id="holiday-multiplier"
              label="Holiday Multiplier"
              type="number"
              step={0.1}
              min={1}
              value={String(values.premiums.holiday_multiplier)}
              onChange={(text) => setPremium('holiday_multiplier', text)}
            />
          </div>
          <TextareaField id="template-notes" label="Notes" value={values.notes} onChange={(notes) => setValues({ ...values, notes })} />
          <SwitchField id="template-active" label="Active" checked={values.is_active} onChange={(is_active) => setValues({ ...values, is_active })} />
          <SwitchField id="template-default" label="Set as Default" checked={values.is_default} onChange={(is_default) => setValues({ ...values, is_default })} />
          {error && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          )}
          <FormErrorSummary error={save.error} fallback="Failed to save template" />
          <DialogFooter className="sm:justify-between">
            {existing && isAdmin ? (
              <Button
                type="button"
                variant="destructive"
                disabled={remove.isPending}
                onClick={() => {
                  if (!window.confirm(`Delete the template "${existing.name}"?`)) return;
                  remove.mutate(existing.id, {
                    onSuccess: () => {
                      toast.success('Template deleted successfully');
                      onClose();
                    },
                    onError: (failure) => toast.error('Error', { description: errorMessage(failure, 'Failed to delete template') }),
                  });
                }}
              >
                Delete Template
              </Button>
            ) : (
              <span />
            )}
            <div className="flex gap-2">
              <Button type="button" variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={save.isPending}>
                {existing ? 'Update' : 'Create'}
              </Button>
            </div>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
