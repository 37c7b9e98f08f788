import { CheckboxGroupField } from '@/components/form/checkbox-group-field';
import { DateField } from '@/components/form/date-field';
import { FormSection } from '@/components/form/form-section';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { INTAKE_LIVING_SITUATION_OPTION_VALUES as LIVING_SITUATION, INTAKE_SERVICE_OPTION_VALUES as SERVICES_REQUIRED, INTAKE_PAYMENT_SOURCE_OPTION_VALUES as SOURCE_OF_PAYMENT } from '@/api/options.gen';
import { SCHEDULE_DAYS } from '../intake-rules';
import { bindList, bindText } from '@/components/form/form-binder';
import type { IntakeBinder, TextIntakeField } from '../api/types';

export function LivingSituationSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="living-situation" title="Living Situation">
      <CheckboxGroupField {...bindList(binder, 'livingSituation', 'Living Situation')} options={LIVING_SITUATION} />
      {binder.form.livingSituation.includes('Other') && <TextField {...bindText(binder, 'livingSituationOther', 'Other Living Situation')} />}
    </FormSection>
  );
}

export function ClientNeedsSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="client-needs" title="Client Needs">
      <TextareaField {...bindText(binder, 'generalCareNeeds', 'General Care Needs')} className="md:col-span-2" />
    </FormSection>
  );
}

export function ServicesSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="services-required" title="Services Required">
      <CheckboxGroupField {...bindList(binder, 'servicesRequired', 'Services Required')} options={SERVICES_REQUIRED} className="md:col-span-2" columns={3} />
      <TextareaField {...bindText(binder, 'servicesNotes', 'Services Notes')} className="md:col-span-2" />
    </FormSection>
  );
}

export function MedicalSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="medical-information" title="Medical Information">
      <TextField {...bindText(binder, 'primaryDiagnosis', 'Primary Diagnosis')} />
      <TextField {...bindText(binder, 'primaryReasonCareNeeded', 'Primary Reason Care Is Needed')} />
      <TextareaField {...bindText(binder, 'mostImportantToCallerSelection', 'What Is Most Important to the Caller?')} className="md:col-span-2" />
    </FormSection>
  );
}

export function ScheduleSection({ binder }: { binder: IntakeBinder }) {
  const hours = binder.form.totalHoursPerWeek;
  return (
    <FormSection id="proposed-schedule" title="Proposed Schedule">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 md:col-span-2 lg:grid-cols-7">
        {SCHEDULE_DAYS.map((day) => (
          <TextField key={day.field} {...bindText(binder, day.field as TextIntakeField, day.label)} placeholder="e.g. 9am-1pm" />
        ))}
      </div>
      <DateField {...bindText(binder, 'anticipatedStartDate', 'Anticipated Start Date')} futureOnly />
      <TextField
        id="totalHoursPerWeek"
        label="Total Hours per Week"
        type="number"
        min={0}
        step="0.5"
        inputMode="decimal"
        value={hours === null ? '' : String(hours)}
        onChange={(value) => binder.set('totalHoursPerWeek', value === '' ? null : Number(value))}
        disabled={binder.readOnly}
        error={binder.errors.totalHoursPerWeek}
      />
    </FormSection>
  );
}

export function PaymentSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="source-of-payment" title="Source of Payment">
      <CheckboxGroupField {...bindList(binder, 'sourceOfPayment', 'Source of Payment')} options={SOURCE_OF_PAYMENT} className="md:col-span-2" />
      <TextField {...bindText(binder, 'paymentOtherComments', 'Other / Comments')} className="md:col-span-2" />
      <TextField {...bindText(binder, 'insuranceCompany', 'Insurance Company')} />
      <TextField {...bindText(binder, 'policyNumber', 'Policy Number')} />
    </FormSection>
  );
}
