import type { IntakeField, IntakeForm } from '../api/types';
import { COPIED_WHEN_CLIENT_IS_CALLER, REQUIRED_FIELDS, type IntakeErrors } from '../intake-rules';

type FieldsOf<T> = { [K in IntakeField]: IntakeForm[K] extends T ? K : never }[IntakeField];
export type TextIntakeField = FieldsOf<string>;
export type ListIntakeField = FieldsOf<string[]>;

/** What every section needs: the form, its errors and a setter. */
export interface IntakeBinder {
  form: IntakeForm;
  errors: IntakeErrors;
  readOnly: boolean;
  set: <K extends IntakeField>(field: K, value: IntakeForm[K]) => void;
}

function disabled(binder: IntakeBinder, field: IntakeField): boolean {
  return binder.readOnly || (binder.form.clientIsCaller && COPIED_WHEN_CLIENT_IS_CALLER.includes(field));
}

export function bindText(binder: IntakeBinder, field: TextIntakeField, label: string) {
  return {
    id: field,
    label,
    value: binder.form[field],
    onChange: (value: string) => binder.set(field, value),
    error: binder.errors[field],
    required: REQUIRED_FIELDS.includes(field),
    disabled: disabled(binder, field),
  };
}

export function bindList(binder: IntakeBinder, field: ListIntakeField, label: string) {
  return {
    id: field,
    label,
    value: binder.form[field],
    onChange: (value: string[]) => binder.set(field, value),
    error: binder.errors[field],
    disabled: binder.readOnly,
  };
}
