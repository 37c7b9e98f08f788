import type { AssessmentStatus, CarePlanStatus } from '@/api/types';

export interface Activity {
  level: string;
  notes: string;
}

export const ADL_KEYS = ['bathing', 'dressing', 'grooming', 'oralCare', 'toileting', 'continence', 'eating', 'mobility', 'transfers'] as const;
export const IADL_KEYS = ['mealPrep', 'housekeeping', 'laundry', 'shopping', 'transportation', 'medicationMgmt', 'phoneUse', 'finances'] as const;
export type AdlKey = (typeof ADL_KEYS)[number];
export type IadlKey = (typeof IADL_KEYS)[number];

/** The whole assessment form under the spec's camelCase names. */
export interface AssessmentForm {
  assessmentDate: string;
  timeIn: string;
  timeOut: string;
  coordinatorName: string;
  assessmentLocation: string;
  clientName: string;
  dateOfBirth: string;
  clientId: string;
  phone: string;
  address: string;
  callerName: string;
  callerEmail: string;
  livingArrangement: string;
  livingArrangementOther: string;
  homeType: string;
  numberOfFloors: string;
  bedroomLocation: string;
  homeSafetyObservations: string;
  stairsPresent: string;
  railingsPresent: string;
  grabBarsInstalled: string[];
  adls: Record<AdlKey, Activity>;
  iadls: Record<IadlKey, Activity>;
  equipmentUsed: string[];
  equipmentOther: string;
  equipmentNeeded: string;
  alertness: string;
  memoryStatus: string;
  communicationAbility: string[];
  cognitiveNotes: string;
  generalMood: string;
  socialPreferences: string;
  hobbies: string;
  primaryContact: string;
  contactRelationship: string;
  contactPhone: string;
  familyInvolvement: string;
  supportServices: string[];
  supportServicesOther: string;
  fallRisk: string;
  fallHistory: string;
  fallCircumstances: string;
  safetyConcerns: string;
  clientGoals: string;
  caregiverGenderPreference: string;
  specialRequests: string;
  recommendedServices: string[];
  recommendedServicesOther: string;
  recommendedHours: number | null;
  recommendedStartDate: string;
  preferredDays: string[];
  preferredTimes: string[];
  scheduleNotes: string;
  additionalNotes: string;
  assessorName: string;
  assessorDate: string;
  clientAckName: string;
  clientAckRelationship: string;
  clientAckDate: string;
}

export type AssessmentField = keyof AssessmentForm;

/** `GET /api/assessments/{id}` and the rows of the list. */
export interface Assessment {
  id: string;
  version: number;
  intake_id: string | null;
  status: AssessmentStatus;
  assessment_date: string | null;
  client_name: string;
  coordinator_name: string;
  recommended_services: string[];
  recommended_hours: number | null;
  preferred_days: string[];
  date_of_birth: string | null;
  age: number | null;
  days_in_stage: number;
  care_plan_id: string | null;
  care_plan_status: CarePlanStatus | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  form: AssessmentForm;
}

export type AssessmentFilter = 'draft' | 'completed' | 'care_plan_generated';

export interface AssessmentPage {
  items: Assessment[];
  next_cursor: string | null;
  stats: { pending: number; completed: number; care_plans_generated: number; total: number };
}

export interface SaveAssessmentBody {
  intake_id?: string;
  form: AssessmentForm;
}

export interface UpdateAssessmentBody {
  version: number;
  form: AssessmentForm;
}

export interface CreatedCarePlan {
  id: string;
}
