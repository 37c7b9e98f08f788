import { CheckboxField } from '@/components/form/checkbox-group-field';
import { DateField } from '@/components/form/date-field';
import { FormSection } from '@/components/form/form-section';
import { TextField } from '@/components/form/text-field';
import { bindText } from '@/components/form/form-binder';
import type { IntakeBinder } from '../api/types';

export function FormHeaderSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="form-header" title="Form Header">
      <DateField {...bindText(binder, 'date', 'Date')} />
      <TextField {...bindText(binder, 'staffMemberTakingCall', 'Staff Member Taking Call')} />
    </FormSection>
  );
}

export function CallerSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="caller" title="Caller">
      <TextField {...bindText(binder, 'callerName', 'Caller Name')} autoComplete="off" />
      <TextField {...bindText(binder, 'relationshipToClient', 'Relationship to Client')} />
      <TextField {...bindText(binder, 'callerPhone', 'Caller Phone')} type="tel" />
      <TextField {...bindText(binder, 'callerEmail', 'Caller Email')} type="email" />
      <TextField {...bindText(binder, 'howDidYouHear', 'How Did You Hear About Us?')} className="md:col-span-2" />
    </FormSection>
  );
}

export function ClientSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="client" title="Client">
      <div className="md:col-span-2">
        <CheckboxField id="clientIsCaller" label="Client is the caller" checked={binder.form.clientIsCaller} onChange={(value) => binder.set('clientIsCaller', value)} disabled={binder.readOnly} />
      </div>
      <TextField {...bindText(binder, 'clientFullName', 'Client Full Name')} />
      <DateField {...bindText(binder, 'dateOfBirth', 'Date of Birth')} pastOnly />
      <TextField {...bindText(binder, 'clientAddress', 'Address')} className="md:col-span-2" />
      <TextField {...bindText(binder, 'city', 'City')} />
      <div className="grid grid-cols-2 gap-4">
        <TextField {...bindText(binder, 'state', 'State')} />
        <TextField {...bindText(binder, 'zipCode', 'ZIP Code')} inputMode="numeric" />
      </div>
      <TextField {...bindText(binder, 'clientPhone', 'Client Phone')} type="tel" />
      <TextField {...bindText(binder, 'clientEmail', 'Client Email')} type="email" />
    </FormSection>
  );
}
