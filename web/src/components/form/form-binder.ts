/**
 * The one way the big forms (intake, assessment, care plan, contract) wire their fields:
 * a binder holds the form object, its errors and a setter, and `bindText` / `bindList` /
 * `bindNumber` turn one field name into the props the field components take. A form
 * only decides which fields are required or disabled; the wiring is written once here.
 * The binder also keeps the values last loaded or saved, so a form knows when it holds
 * unsaved changes and tells the leave guard.
 */
import { dequal } from 'dequal';
import { useState } from 'react';
import { useUnsavedChanges } from '@/lib/unsaved-changes';

export type FormErrors = Partial<Record<string, string>>;

type Key<T> = keyof T & string;

/** The names of the fields of `T` whose value is a `V`. */
export type FieldsOf<T, V> = { [K in Key<T>]-?: T[K] extends V ? K : never }[Key<T>];

export interface FormBinder<T extends object> {
  form: T;
  errors: FormErrors;
  readOnly: boolean;
  set: <K extends Key<T>>(field: K, value: T[K]) => void;
  isRequired: (field: Key<T>) => boolean;
  isDisabled: (field: Key<T>) => boolean;
}

export interface FormBinderOptions<T extends object> {
  /** Marked with a red star; the server still decides what a save needs. */
  required?: readonly Key<T>[];
  readOnly?: boolean;
  /** Fields the form fills itself (the intake copies the caller into the client fields). */
  disabled?: (form: T, field: Key<T>) => boolean;
  /** How one change lands in the form; by default only that field changes. */
  apply?: <K extends Key<T>>(form: T, field: K, value: T[K]) => T;
  /**
   * The stored values when the form starts from something else (a suggestion shown on top
   * of a stored record): the form is then unsaved from the start. By default the initial values.
   */
  baseline?: T;
  /** Called when the user leaves the form with its unsaved changes (a kept copy may go too). */
  onDiscard?: () => void;
}

export interface FormState<T extends object> {
  binder: FormBinder<T>;
  form: T;
  setForm: (next: T | ((previous: T) => T)) => void;
  errors: FormErrors;
  setErrors: (errors: FormErrors) => void;
  /** The form differs from what was last loaded or saved. */
  dirty: boolean;
  /** After a save: `saved` (by default what the form shows) becomes the baseline. */
  markSaved: (saved?: T) => void;
  /** Shows `values` as the freshly loaded record (a refresh to the latest version). */
  reset: (values: T) => void;
}

const resolve = <T>(value: T | (() => T)): T => (typeof value === 'function' ? (value as () => T)() : value);

/** Holds a form's values and errors; a change to a field clears that field's error. */
export function useFormBinder<T extends object>(initial: T | (() => T), options: FormBinderOptions<T> = {}): FormState<T> {
  const [start] = useState(() => resolve(initial));
  const [form, setForm] = useState<T>(start);
  const [baseline, setBaseline] = useState<T>(() => options.baseline ?? start);
  const [errors, setErrors] = useState<FormErrors>({});
  const { required = [], readOnly = false, disabled, apply } = options;
  const dirty = !readOnly && !dequal(form, baseline);
  const { settle } = useUnsavedChanges(dirty, options.onDiscard);
  const binder: FormBinder<T> = {
    form,
    errors,
    readOnly,
    set: (field, value) => {
      setForm((previous) => (apply ? apply(previous, field, value) : { ...previous, [field]: value }));
      setErrors((previous) => (previous[field] ? { ...previous, [field]: undefined } : previous));
    },
    isRequired: (field) => required.includes(field),
    isDisabled: (field) => readOnly || (disabled?.(form, field) ?? false),
  };
  const markSaved = (saved?: T) => {
    const values = saved ?? form;
    setBaseline(values);
    // Clean only when the form still shows what was saved; the next render re-checks.
    if (dequal(values, form)) settle();
  };
  const reset = (values: T) => {
    setForm(values);
    setBaseline(values);
    setErrors({});
  };
  return { binder, form, setForm, errors, setErrors, dirty, markSaved, reset };
}

function common<T extends object>(binder: FormBinder<T>, field: Key<T>, label: string) {
  return { id: field, label, error: binder.errors[field], required: binder.isRequired(field), disabled: binder.isDisabled(field) };
}

export function bindText<T extends object>(binder: FormBinder<T>, field: FieldsOf<T, string>, label: string) {
  return {
    ...common(binder, field, label),
    value: binder.form[field] as string,
    onChange: (value: string) => binder.set(field, value as T[typeof field]),
  };
}

export function bindList<T extends object>(binder: FormBinder<T>, field: FieldsOf<T, string[]>, label: string) {
  return {
    ...common(binder, field, label),
    value: binder.form[field] as string[],
    onChange: (value: string[]) => binder.set(field, value as T[typeof field]),
  };
}

/** A number field typed as text: empty means null, anything unreadable is kept as null too. */
export function bindNumber<T extends object>(binder: FormBinder<T>, field: FieldsOf<T, number | null>, label: string) {
  const value = binder.form[field] as number | null;
  return {
    ...common(binder, field, label),
    type: 'number' as const,
    value: value === null ? '' : String(value),
    onChange: (text: string) => {
      const parsed = text.trim() === '' ? null : Number(text);
      binder.set(field, (parsed === null || Number.isNaN(parsed) ? null : parsed) as T[typeof field]);
    },
  };
}
