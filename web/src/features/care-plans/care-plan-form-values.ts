import { CARE_PLAN_SERVICE_LABEL_OPTION_VALUES, CARE_PLAN_SERVICE_VALUES } from '@/api/options.gen';
import type { CarePlan, CarePlanForm, CarePlanInput, CarePlanService, DaySchedule, WeeklySchedule } from './api/types';

export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const satisfies readonly (keyof WeeklySchedule)[];
export type WeekDay = (typeof WEEK_DAYS)[number];

export const DAY_LABELS: Record<WeekDay, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** The eight services with their labels, both lists generated from the API's enums (same order). */
export const SERVICE_OPTIONS: readonly { value: CarePlanService; label: string }[] = CARE_PLAN_SERVICE_VALUES.map((value, index) => ({
  value,
  label: CARE_PLAN_SERVICE_LABEL_OPTION_VALUES[index] ?? value,
}));

const day = (stored: DaySchedule | undefined): Required<DaySchedule> => ({ time: stored?.time ?? '', hours: stored?.hours ?? 0 });

export function normalizeSchedule(stored: WeeklySchedule | undefined): CarePlanForm['schedule'] {
  return {
    monday: day(stored?.monday),
    tuesday: day(stored?.tuesday),
    wednesday: day(stored?.wednesday),
    thursday: day(stored?.thursday),
    friday: day(stored?.friday),
    saturday: day(stored?.saturday),
    sunday: day(stored?.sunday),
  };
}

/** A stored plan or a prefill as the form's values, every field present so inputs stay controlled. */
export function carePlanFormValues(stored: CarePlanInput | CarePlan | undefined): CarePlanForm {
  return {
    client_name: stored?.client_name ?? '',
    family_contact_name: stored?.family_contact_name ?? '',
    family_contact_email: stored?.family_contact_email ?? '',
    care_coordinator_name: stored?.care_coordinator_name ?? '',
    services: [...(stored?.services ?? [])],
    additional_notes: stored?.additional_notes ?? '',
    schedule: normalizeSchedule(stored?.schedule),
    proposed_start_date: stored?.proposed_start_date ?? '',
    pricing_template_id: stored?.pricing_template_id ?? null,
    hourly_rate: stored?.hourly_rate ?? null,
  };
}
