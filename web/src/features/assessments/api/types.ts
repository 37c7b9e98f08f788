import type { AssessmentFilterValue } from '@/api/options.gen';
import type { FormBinder } from '@/components/form/form-binder';
import type { Schemas } from '@/api/types';

export type Activity = Schemas['Activity'];

export const ADL_KEYS = ['bathing', 'dressing', 'grooming', 'oralCare', 'toileting', 'continence', 'eating', 'mobility', 'transfers'] as const;
export const IADL_KEYS = ['mealPrep', 'housekeeping', 'laundry', 'shopping', 'transportation', 'medicationMgmt', 'phoneUse', 'finances'] as const;
export type AdlKey = (typeof ADL_KEYS)[number];
export type IadlKey = (typeof IADL_KEYS)[number];

/** The whole assessment form under the spec's camelCase names. */
export type AssessmentForm = Schemas['AssessmentForm'];

export type AssessmentField = keyof AssessmentForm;

/** `GET /api/assessments/{id}` and the rows of the list. */
export type Assessment = Schemas['Assessment'];

export type AssessmentFilter = AssessmentFilterValue;

export type AssessmentPage = Schemas['AssessmentPage'];
export type SaveAssessmentBody = Schemas['AssessmentBody'];
export type UpdateAssessmentBody = Schemas['AssessmentUpdate'];
export type CreatedCarePlan = Schemas['CarePlan'];

export type AssessmentBinder = FormBinder<AssessmentForm>;
