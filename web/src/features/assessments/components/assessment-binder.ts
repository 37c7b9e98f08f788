import type { AssessmentField, AssessmentForm } from '../api/types';
import { REQUIRED_ASSESSMENT_FIELDS } from '../assessment-options';

type FieldsOf<T> = { [K in AssessmentField]: AssessmentForm[K] extends T ? K : never }[AssessmentField];
export type TextAssessmentField = FieldsOf<string>;
export type ListAssessmentField = FieldsOf<string[]>;

export interface AssessmentBinder {
  form: AssessmentForm;
  errors: Partial<Record<string, string>>;
  set: <K extends AssessmentField>(field: K, value: AssessmentForm[K]) => void;
}

export function bindText(binder: AssessmentBinder, field: TextAssessmentField, label: string) {
  return {
    id: field,
    label,
    value: binder.form[field],
    onChange: (value: string) => binder.set(field, value),
    error: binder.errors[field],
    required: REQUIRED_ASSESSMENT_FIELDS.includes(field),
  };
}

export function bindList(binder: AssessmentBinder, field: ListAssessmentField, label: string) {
  return {
    id: field,
    label,
    value: binder.form[field],
    onChange: (value: string[]) => binder.set(field, value),
    error: binder.errors[field],
    required: REQUIRED_ASSESSMENT_FIELDS.includes(field),
  };
}
