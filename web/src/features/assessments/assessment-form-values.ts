import { ADL_KEYS, IADL_KEYS, type Activity, type AdlKey, type AssessmentField, type AssessmentForm, type IadlKey } from './api/types';


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
