import { ADL_KEYS, IADL_KEYS, type Activity, type AdlKey, type AssessmentField, type AssessmentForm, type IadlKey } from './api/types';

export const LIVING_ARRANGEMENT = ['Lives Alone', 'Lives with Spouse', 'Lives with Family Member', 'Lives with Caregiver', 'Assisted Living', 'Other'] as const;
export const HOME_TYPE = ['House', 'Apartment', 'Condo', 'Other'] as const;
export const BEDROOM_LOCATION = ['Main Floor', 'Upstairs', 'Downstairs/Basement'] as const;
export const YES_NO = ['Yes', 'No'] as const;
export const GRAB_BARS = ['Bathroom', 'Bedroom', 'None'] as const;
export const ACTIVITY_LEVELS = ['Independent', 'Supervision', 'Minimal Assist', 'Moderate Assist', 'Total Assist'] as const;
export const EQUIPMENT = ['Walker', 'Cane', 'Wheelchair', 'Hospital Bed', 'Lift Chair', 'Shower Chair', 'Oxygen', 'Hoyer Lift', 'Bedside Commode', 'Grab Bars', 'None', 'Other'] as const;
export const ALERTNESS = ['Alert & Oriented x3', 'Confused', 'Disoriented'] as const;
export const MEMORY_STATUS = ['Intact', 'Short-term issues', 'Long-term issues'] as const;
export const COMMUNICATION_ABILITY = ['No issues', 'Hearing impairment', 'Vision impairment', 'Speech difficulties'] as const;
export const GENERAL_MOOD = ['Pleasant/Cooperative', 'Anxious', 'Withdrawn', 'Depressed', 'Agitated'] as const;
export const SUPPORT_SERVICES = ['Physical Therapy', 'Occupational Therapy', 'Speech Therapy', 'Home Health Nursing', 'Meals on Wheels', 'Other'] as const;
export const FALL_RISK = ['Low', 'Moderate', 'High'] as const;
export const CAREGIVER_GENDER_PREFERENCE = ['No Preference', 'Female', 'Male'] as const;
export const RECOMMENDED_SERVICES = [
  'Personal Care (ADLs)',
  'Companionship',
  'Light Housekeeping',
  'Meal Preparation',
  'Medication Reminders',
  'Transportation/Errands',
  'Respite Care',
  '24-Hour Care',
  'Other',
] as const;
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const PREFERRED_TIMES = ['Morning 6am-12pm', 'Afternoon 12pm-6pm', 'Evening 6pm-12am', 'Overnight 12am-6am'] as const;

export const ADL_LABELS: Record<AdlKey, string> = {
  bathing: 'Bathing',
  dressing: 'Dressing',
  grooming: 'Grooming',
  oralCare: 'Oral Care',
  toileting: 'Toileting',
  continence: 'Continence',
  eating: 'Eating',
  mobility: 'Mobility',
  transfers: 'Transfers',
};

export const IADL_LABELS: Record<IadlKey, string> = {
  mealPrep: 'Meal Preparation',
  housekeeping: 'Housekeeping',
  laundry: 'Laundry',
  shopping: 'Shopping',
  transportation: 'Transportation',
  medicationMgmt: 'Medication Management',
  phoneUse: 'Phone Use',
  finances: 'Finances',
};

/** Marked required: the server checks them in the spec's order when the assessment is saved. */
export const REQUIRED_ASSESSMENT_FIELDS: readonly AssessmentField[] = ['clientName', 'phone', 'coordinatorName', 'recommendedServices', 'recommendedHours', 'preferredDays'];

const activity = (): Activity => ({ level: '', notes: '' });

export function emptyAssessmentForm(): AssessmentForm {
  return {
    assessmentDate: '',
    timeIn: '',
    timeOut: '',
    coordinatorName: '',
    assessmentLocation: '',
    clientName: '',
    dateOfBirth: '',
    clientId: '',
    phone: '',
    address: '',
    callerName: '',
    callerEmail: '',
    livingArrangement: '',
    livingArrangementOther: '',
    homeType: '',
    numberOfFloors: '',
    bedroomLocation: '',
    homeSafetyObservations: '',
    stairsPresent: '',
    railingsPresent: '',
    grabBarsInstalled: [],
    adls: Object.fromEntries(ADL_KEYS.map((key) => [key, activity()])) as Record<AdlKey, Activity>,
    iadls: Object.fromEntries(IADL_KEYS.map((key) => [key, activity()])) as Record<IadlKey, Activity>,
    equipmentUsed: [],
    equipmentOther: '',
    equipmentNeeded: '',
    alertness: '',
    memoryStatus: '',
    communicationAbility: [],
    cognitiveNotes: '',
    generalMood: '',
    socialPreferences: '',
    hobbies: '',
    primaryContact: '',
    contactRelationship: '',
    contactPhone: '',
    familyInvolvement: '',
    supportServices: [],
    supportServicesOther: '',
    fallRisk: '',
    fallHistory: '',
    fallCircumstances: '',
    safetyConcerns: '',
    clientGoals: '',
    caregiverGenderPreference: '',
    specialRequests: '',
    recommendedServices: [],
    recommendedServicesOther: '',
    recommendedHours: null,
    recommendedStartDate: '',
    preferredDays: [],
    preferredTimes: [],
    scheduleNotes: '',
    additionalNotes: '',
    assessorName: '',
    assessorDate: '',
    clientAckName: '',
    clientAckRelationship: '',
    clientAckDate: '',
  };
}

/** A stored or pre-filled form with every field present, so every input stays controlled. */
export function normalizeAssessmentForm(stored: Partial<AssessmentForm> | undefined): AssessmentForm {
  const base = emptyAssessmentForm();
  if (!stored) return base;
  const merged: AssessmentForm = { ...base };
  for (const key of Object.keys(base) as AssessmentField[]) {
    const value = stored[key];
    if (value !== undefined && value !== null && key !== 'adls' && key !== 'iadls') Object.assign(merged, { [key]: value });
  }
  merged.adls = { ...base.adls, ...(stored.adls ?? {}) };
  merged.iadls = { ...base.iadls, ...(stored.iadls ?? {}) };
  return merged;
}
