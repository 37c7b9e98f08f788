import { CheckboxGroupField } from '@/components/form/checkbox-group-field';
import { DateField } from '@/components/form/date-field';
import { FormSection } from '@/components/form/form-section';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { INTAKE_PREFERRED_METHOD_OPTION_VALUES as PREFERRED_METHOD, INTAKE_PRIORITY_OPTION_VALUES as PRIORITY_LEVELS } from '@/api/options.gen';
import { bindList, bindText } from '@/components/form/form-binder';
import type { IntakeBinder } from '../api/types';

export function AssessmentSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="assessment" title="Assessment">
      <DateField {...bindText(binder, 'consultationDate', 'Consultation Date')} futureOnly />
      <TextField {...bindText(binder, 'consultationTime', 'Consultation Time')} type="time" />
      <TextField {...bindText(binder, 'consultationLocation', 'Consultation Location')} />
      <TextField {...bindText(binder, 'whoWillYouMeetWith', 'Who Will You Meet With?')} />
      <TextField {...bindText(binder, 'staffMemberAssignedForVisit', 'Staff Member Assigned for Visit')} />
    </FormSection>
  );
}

export function NotScheduledSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="not-scheduled" title="If Assessment Was Not Scheduled">
      <TextareaField {...bindText(binder, 'reasonNotScheduled', 'Reason Not Scheduled')} className="md:col-span-2" />
      <DateField {...bindText(binder, 'followUpDate', 'Follow-up Date')} futureOnly />
      <TextField {...bindText(binder, 'followUpTime', 'Follow-up Time')} type="time" />
      <CheckboxGroupField {...bindList(binder, 'preferredMethod', 'Preferred Method')} options={PREFERRED_METHOD} columns={3} className="md:col-span-2" />
    </FormSection>
  );
}

export function CommentsSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="additional-comments" title="Additional Comments">
      <TextareaField {...bindText(binder, 'additionalComments', 'Additional Comments')} className="md:col-span-2" />
    </FormSection>
  );
}

export function FollowUpReminderSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="follow-up-reminder" title="Follow-up Reminder">
      <DateField {...bindText(binder, 'nextFollowUpDate', 'Next Follow-up Date')} futureOnly />
      <TextField {...bindText(binder, 'nextFollowUpTime', 'Next Follow-up Time')} type="time" hint="The reminder is kept only when both date and time are given." />
      <TextareaField {...bindText(binder, 'followUpNotes', 'Follow-up Notes')} className="md:col-span-2" />
    </FormSection>
  );
}

export function OfficeUseSection({ binder }: { binder: IntakeBinder }) {
  return (
    <FormSection id="office-use" title="For Office Use Only">
      <TextField {...bindText(binder, 'clientId', 'Client ID')} />
      <TextField {...bindText(binder, 'assignedCoordinator', 'Assigned Coordinator')} hint="The member of staff named here owns the client; left empty, whoever saves it does." />
      <TextField {...bindText(binder, 'status', 'Status')} />
      <TextField {...bindText(binder, 'referralSourceType', 'Referral Source Type')} />
      <SelectField {...bindText(binder, 'priorityLevel', 'Priority Level')} options={PRIORITY_LEVELS} />
      <TextField {...bindText(binder, 'completedByStaffName', 'Completed By (Staff Name)')} />
      <DateField {...bindText(binder, 'completedDate', 'Completed Date')} />
    </FormSection>
  );
}
