import type { FieldsOf, FormBinder } from '@/components/form/form-binder';
import type { IntakeSummary, JourneyStep, Schemas } from '@/api/types';

/** The whole intake form under the spec's camelCase field names. */
export type IntakeForm = Schemas['IntakeForm'];

export type IntakeField = keyof IntakeForm;

/** `GET /api/intakes/{id}`: the summary columns plus the form. */
export type Intake = Schemas['Intake'];

export type CreateIntakeBody = Schemas['IntakeBody'];
export type UpdateIntakeBody = Schemas['IntakeUpdate'];

export interface ClientJourney {
  intake: IntakeSummary;
  journey: JourneyStep[];
  contacts_count: number;
}

export type IntakeBinder = FormBinder<IntakeForm>;
export type TextIntakeField = FieldsOf<IntakeForm, string>;
