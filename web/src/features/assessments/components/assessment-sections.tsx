import { CheckboxGroupField } from '@/components/form/checkbox-group-field';
import { DateField } from '@/components/form/date-field';
import { FormSection } from '@/components/form/form-section';
import { RadioGroupField } from '@/components/form/radio-group-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { ADL_KEYS, IADL_KEYS } from '../api/types';
import * as O from '@/api/options.gen';
import { ADL_LABELS, IADL_LABELS } from '../assessment-form-values';
import { ActivityTable } from './activity-table';
import { bindList, bindText } from '@/components/form/form-binder';
import type { AssessmentBinder } from '../api/types';

export function AssessmentSections({ binder }: { binder: AssessmentBinder }) {
  const { form, set } = binder;
  return (
    <>
      <FormSection id="assessment-information" title="Assessment Information">
        <DateField {...bindText(binder, 'assessmentDate', 'Assessment Date')} futureOnly />
        <TextField {...bindText(binder, 'coordinatorName', 'Coordinator Name')} />
        <TextField {...bindText(binder, 'timeIn', 'Time In')} type="time" />
        <TextField {...bindText(binder, 'timeOut', 'Time Out')} type="time" />
        <TextField {...bindText(binder, 'assessmentLocation', 'Assessment Location')} className="md:col-span-2" />
      </FormSection>
      <FormSection id="client-information" title="Client Information">
        <TextField {...bindText(binder, 'clientName', 'Client Name')} />
        <DateField {...bindText(binder, 'dateOfBirth', 'Date of Birth')} pastOnly />
        <TextField {...bindText(binder, 'phone', 'Phone')} type="tel" />
        <TextField {...bindText(binder, 'clientId', 'Client ID')} />
        <TextField {...bindText(binder, 'address', 'Address')} className="md:col-span-2" />
      </FormSection>
      <FormSection id="living-environment" title="Living Situation & Environment">
        <RadioGroupField {...bindText(binder, 'livingArrangement', 'Living Arrangement')} options={O.ASSESSMENT_LIVING_ARRANGEMENT_OPTION_VALUES} className="md:col-span-2" />
        {form.livingArrangement === 'Other' && <TextField {...bindText(binder, 'livingArrangementOther', 'Other Living Arrangement')} />}
        <RadioGroupField {...bindText(binder, 'homeType', 'Home Type')} options={O.ASSESSMENT_HOME_TYPE_OPTION_VALUES} />
        <TextField {...bindText(binder, 'numberOfFloors', 'Number of Floors')} inputMode="numeric" />
        <RadioGroupField {...bindText(binder, 'bedroomLocation', 'Bedroom Location')} options={O.ASSESSMENT_BEDROOM_LOCATION_OPTION_VALUES} />
        <RadioGroupField {...bindText(binder, 'stairsPresent', 'Stairs Present')} options={O.YES_NO_OPTION_VALUES} />
        {form.stairsPresent === 'Yes' && <RadioGroupField {...bindText(binder, 'railingsPresent', 'Railings Present')} options={O.YES_NO_OPTION_VALUES} />}
        <CheckboxGroupField {...bindList(binder, 'grabBarsInstalled', 'Grab Bars Installed')} options={O.ASSESSMENT_GRAB_BARS_OPTION_VALUES} columns={3} />
        <TextareaField {...bindText(binder, 'homeSafetyObservations', 'Home Safety Observations')} className="md:col-span-2" />
      </FormSection>
      <ActivityTable id="adls" title="Activities of Daily Living (ADLs)" keys={ADL_KEYS} labels={ADL_LABELS} value={form.adls} onChange={(value) => set('adls', value)} />
      <ActivityTable id="iadls" title="Instrumental Activities of Daily Living (IADLs)" keys={IADL_KEYS} labels={IADL_LABELS} value={form.iadls} onChange={(value) => set('iadls', value)} />
      <FormSection id="equipment" title="Equipment">
        <CheckboxGroupField {...bindList(binder, 'equipmentUsed', 'Equipment Used')} options={O.ASSESSMENT_EQUIPMENT_OPTION_VALUES} columns={3} className="md:col-span-2" />
        {form.equipmentUsed.includes('Other') && <TextField {...bindText(binder, 'equipmentOther', 'Other Equipment')} />}
        <TextareaField {...bindText(binder, 'equipmentNeeded', 'Equipment Needed')} className="md:col-span-2" />
      </FormSection>
      <FormSection id="cognitive" title="Cognitive">
        <RadioGroupField {...bindText(binder, 'alertness', 'Alertness')} options={O.ASSESSMENT_ALERTNESS_OPTION_VALUES} />
        <RadioGroupField {...bindText(binder, 'memoryStatus', 'Memory')} options={O.ASSESSMENT_MEMORY_STATUS_OPTION_VALUES} />
        <CheckboxGroupField {...bindList(binder, 'communicationAbility', 'Communication Ability')} options={O.ASSESSMENT_COMMUNICATION_ABILITY_OPTION_VALUES} className="md:col-span-2" />
        <TextareaField {...bindText(binder, 'cognitiveNotes', 'Cognitive Notes')} className="md:col-span-2" />
      </FormSection>
      <FormSection id="social" title="Social">
        <RadioGroupField {...bindText(binder, 'generalMood', 'General Mood')} options={O.ASSESSMENT_GENERAL_MOOD_OPTION_VALUES} className="md:col-span-2" />
        <TextareaField {...bindText(binder, 'socialPreferences', 'Social Preferences')} />
        <TextareaField {...bindText(binder, 'hobbies', 'Hobbies & Interests')} />
      </FormSection>
      <FormSection id="family-support" title="Family Support">
        <TextField {...bindText(binder, 'primaryContact', 'Primary Contact')} />
        <TextField {...bindText(binder, 'contactRelationship', 'Relationship')} />
        <TextField {...bindText(binder, 'contactPhone', 'Contact Phone')} type="tel" />
        <TextField {...bindText(binder, 'familyInvolvement', 'Family Involvement')} />
        <CheckboxGroupField {...bindList(binder, 'supportServices', 'Other Support Services')} options={O.ASSESSMENT_SUPPORT_SERVICE_OPTION_VALUES} className="md:col-span-2" />
        {form.supportServices.includes('Other') && <TextField {...bindText(binder, 'supportServicesOther', 'Other Support Service')} />}
      </FormSection>
      <FormSection id="safety" title="Safety">
        <RadioGroupField {...bindText(binder, 'fallRisk', 'Fall Risk')} options={O.ASSESSMENT_FALL_RISK_OPTION_VALUES} />
        <RadioGroupField {...bindText(binder, 'fallHistory', 'History of Falls')} options={O.YES_NO_OPTION_VALUES} />
        <TextareaField {...bindText(binder, 'fallCircumstances', 'Fall Circumstances')} />
        <TextareaField {...bindText(binder, 'safetyConcerns', 'Safety Concerns')} />
      </FormSection>
      <FormSection id="goals" title="Goals">
        <TextareaField {...bindText(binder, 'clientGoals', 'Client Goals')} className="md:col-span-2" />
        <RadioGroupField {...bindText(binder, 'caregiverGenderPreference', 'Caregiver Gender Preference')} options={O.ASSESSMENT_CAREGIVER_GENDER_OPTION_VALUES} />
        <TextareaField {...bindText(binder, 'specialRequests', 'Special Requests')} />
      </FormSection>
      <FormSection id="recommended-services" title="Recommended Services & Schedule">
        <CheckboxGroupField {...bindList(binder, 'recommendedServices', 'Recommended Services')} options={O.ASSESSMENT_RECOMMENDED_SERVICE_OPTION_VALUES} columns={3} className="md:col-span-2" />
        {form.recommendedServices.includes('Other') && <TextField {...bindText(binder, 'recommendedServicesOther', 'Other Recommended Service')} />}
        <TextField
          id="recommendedHours"
          label="Recommended Hours per Week"
          type="number"
          min={0}
          step="0.5"
          inputMode="decimal"
          required
          value={form.recommendedHours === null ? '' : String(form.recommendedHours)}
          onChange={(value) => set('recommendedHours', value === '' ? null : Number(value))}
          error={binder.errors.recommendedHours}
        />
        <DateField {...bindText(binder, 'recommendedStartDate', 'Recommended Start Date')} futureOnly />
        <CheckboxGroupField {...bindList(binder, 'preferredDays', 'Preferred Days')} options={O.WEEKDAY_OPTION_VALUES} columns={3} className="md:col-span-2" />
        <CheckboxGroupField {...bindList(binder, 'preferredTimes', 'Preferred Times')} options={O.ASSESSMENT_PREFERRED_TIME_OPTION_VALUES} className="md:col-span-2" />
        <TextareaField {...bindText(binder, 'scheduleNotes', 'Schedule Notes')} className="md:col-span-2" />
      </FormSection>
      <FormSection id="notes" title="Notes">
        <TextareaField {...bindText(binder, 'additionalNotes', 'Additional Notes')} className="md:col-span-2" rows={4} />
      </FormSection>
      <FormSection id="completed-by" title="Completed By">
        <TextField {...bindText(binder, 'assessorName', 'Assessor Name')} />
        <DateField {...bindText(binder, 'assessorDate', 'Assessor Date')} />
        <TextField {...bindText(binder, 'clientAckName', 'Client / Representative Name')} />
        <TextField {...bindText(binder, 'clientAckRelationship', 'Relationship to Client')} />
        <DateField {...bindText(binder, 'clientAckDate', 'Acknowledgement Date')} />
      </FormSection>
    </>
  );
}
