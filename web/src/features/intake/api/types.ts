import type { IntakeSummary, JourneyStep } from '@/api/types';

/** The whole intake form under the spec's camelCase field names. */
export interface IntakeForm {
  date: string;
  staffMemberTakingCall: string;
  callerName: string;
  relationshipToClient: string;
  callerPhone: string;
  callerEmail: string;
  howDidYouHear: string;
  clientIsCaller: boolean;
  clientFullName: string;
  dateOfBirth: string;
  clientAddress: string;
  city: string;
  state: string;
  zipCode: string;
  clientPhone: string;
  clientEmail: string;
  livingSituation: string[];
  livingSituationOther: string;
  generalCareNeeds: string;
  servicesRequired: string[];
  servicesNotes: string;
  primaryDiagnosis: string;
  primaryReasonCareNeeded: string;
  mostImportantToCallerSelection: string;
  scheduleMon: string;
  scheduleTue: string;
  scheduleWed: string;
  scheduleThu: string;
  scheduleFri: string;
  scheduleSat: string;
  scheduleSun: string;
  anticipatedStartDate: string;
  totalHoursPerWeek: number | null;
  sourceOfPayment: string[];
  paymentOtherComments: string;
  insuranceCompany: string;
  policyNumber: string;
  consultationDate: string;
  consultationTime: string;
  consultationLocation: string;
  whoWillYouMeetWith: string;
  staffMemberAssignedForVisit: string;
  reasonNotScheduled: string;
  followUpDate: string;
  followUpTime: string;
  preferredMethod: string[];
  additionalComments: string;
  nextFollowUpDate: string;
  nextFollowUpTime: string;
  followUpNotes: string;
  clientId: string;
  assignedCoordinator: string;
  status: string;
  referralSourceType: string;
  priorityLevel: string;
  completedByStaffName: string;
  completedDate: string;
}

export type IntakeField = keyof IntakeForm;

/** `GET /api/intakes/{id}`: the summary columns plus the form. */
export interface Intake extends IntakeSummary {
  assigned_coordinator: string | null;
  updated_at: string;
  assessment_scheduled_date: string | null;
  deleted_at: string | null;
  form: IntakeForm;
}

export interface CreateIntakeBody {
  form: IntakeForm;
}

export interface UpdateIntakeBody {
  version: number;
  form: IntakeForm;
}

/** The part of `GET /api/clients/{id}` the form's side panel reads. */
export interface ClientJourney {
  intake: IntakeSummary;
  journey: JourneyStep[];
  contacts_count: number;
}
