import type { IntakeField, IntakeForm } from './api/types';

/** Marked required on the form. */
export const REQUIRED_FIELDS: readonly IntakeField[] = ['date', 'staffMemberTakingCall', 'callerName', 'callerPhone', 'relationshipToClient', 'clientFullName', 'dateOfBirth'];

export const REQUIRED_MESSAGE = 'This field is required';

export type IntakeErrors = Partial<Record<IntakeField, string>>;

/** The fields a submit enforces; the client's name is exempt when the client is the caller. */
export function missingRequiredFields(form: IntakeForm): IntakeErrors {
  const errors: IntakeErrors = {};
  if (!form.staffMemberTakingCall.trim()) errors.staffMemberTakingCall = REQUIRED_MESSAGE;
  if (!form.callerName.trim()) errors.callerName = REQUIRED_MESSAGE;
  if (!form.clientIsCaller && !form.clientFullName.trim()) errors.clientFullName = REQUIRED_MESSAGE;
  return errors;
}

export function missingFieldsToast(count: number): { title: string; description: string } {
  return { title: 'Missing Required Fields', description: `Please fill in ${count} required field(s) highlighted in red.` };
}

/** When the client is the caller, the relationship is "Self" and the client's name, phone and email are the caller's. */
export function withCallerCopied(form: IntakeForm): IntakeForm {
  if (!form.clientIsCaller) return form;
  return { ...form, relationshipToClient: 'Self', clientFullName: form.callerName, clientPhone: form.callerPhone, clientEmail: form.callerEmail };
}

/** Sets one field and keeps the caller copy current. */
export function setIntakeField<K extends IntakeField>(form: IntakeForm, field: K, value: IntakeForm[K]): IntakeForm {
  return withCallerCopied({ ...form, [field]: value });
}

export const COPIED_WHEN_CLIENT_IS_CALLER: readonly IntakeField[] = ['relationshipToClient', 'clientFullName', 'clientPhone', 'clientEmail'];

export function emptyIntakeForm(today: string): IntakeForm {
  return {
    date: today,
    staffMemberTakingCall: '',
    callerName: '',
    relationshipToClient: '',
    callerPhone: '',
    callerEmail: '',
    howDidYouHear: '',
    clientIsCaller: false,
    clientFullName: '',
    dateOfBirth: '',
    clientAddress: '',
    city: '',
    state: '',
    zipCode: '',
    clientPhone: '',
    clientEmail: '',
    livingSituation: [],
    livingSituationOther: '',
    generalCareNeeds: '',
    servicesRequired: [],
    servicesNotes: '',
    primaryDiagnosis: '',
    primaryReasonCareNeeded: '',
    mostImportantToCallerSelection: '',
    scheduleMon: '',
    scheduleTue: '',
    scheduleWed: '',
    scheduleThu: '',
    scheduleFri: '',
    scheduleSat: '',
    scheduleSun: '',
    anticipatedStartDate: '',
    totalHoursPerWeek: null,
    sourceOfPayment: [],
    paymentOtherComments: '',
    insuranceCompany: '',
    policyNumber: '',
    consultationDate: '',
    consultationTime: '',
    consultationLocation: '',
    whoWillYouMeetWith: '',
    staffMemberAssignedForVisit: '',
    reasonNotScheduled: '',
    followUpDate: '',
    followUpTime: '',
    preferredMethod: [],
    additionalComments: '',
    nextFollowUpDate: '',
    nextFollowUpTime: '',
    followUpNotes: '',
    clientId: '',
    assignedCoordinator: '',
    status: '',
    referralSourceType: '',
    priorityLevel: '',
    completedByStaffName: '',
    completedDate: '',
  };
}

/** A stored form with any missing field filled in, so every input stays controlled. */
export function normalizeIntakeForm(stored: Partial<IntakeForm>, today: string): IntakeForm {
  const base = emptyIntakeForm(today);
  const merged: IntakeForm = { ...base };
  for (const key of Object.keys(base) as IntakeField[]) {
    const value = stored[key];
    if (value !== undefined && value !== null) Object.assign(merged, { [key]: value });
  }
  return merged;
}

export const SCHEDULE_DAYS: readonly { field: IntakeField; label: string }[] = [
  { field: 'scheduleMon', label: 'Monday' },
  { field: 'scheduleTue', label: 'Tuesday' },
  { field: 'scheduleWed', label: 'Wednesday' },
  { field: 'scheduleThu', label: 'Thursday' },
  { field: 'scheduleFri', label: 'Friday' },
  { field: 'scheduleSat', label: 'Saturday' },
  { field: 'scheduleSun', label: 'Sunday' },
];
