import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Label } from '@/components/ui/input';

export interface FieldBaseProps {
  id: string;
  label: string;
  required?: boolean;
  /** Shown in red under the field; the field is outlined in red. */
  error?: string | undefined;
  /** A non-blocking note in red, e.g. "Date should be in the future". */
  warning?: string | undefined;
  hint?: string;
  className?: string;
}

export function RequiredMark() {
  return (
    <span className="ml-0.5 text-destructive" aria-hidden="true">
      *
    </span>
  );
}

export function describedBy(props: Pick<FieldBaseProps, 'id' | 'error' | 'warning' | 'hint'>): string | undefined {
  const ids = [props.error ? `${props.id}-error` : null, props.warning ? `${props.id}-warning` : null, props.hint ? `${props.id}-hint` : null].filter(
    (value): value is string => value !== null,
  );
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function FieldMessages({ id, error, warning, hint }: Pick<FieldBaseProps, 'id' | 'error' | 'warning' | 'hint'>) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {warning && (
        <p id={`${id}-warning`} className="text-xs font-medium text-destructive">
          {warning}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </>
  );
}

/** Label, control and messages of one form field; `data-field` lets a form scroll to it. */
export function Field({ id, label, required, error, warning, hint, className, children }: FieldBaseProps & { children: ReactNode }) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)} data-field={id} data-invalid={error ? 'true' : undefined}>
      <Label htmlFor={id} className={cn(error && 'text-destructive')}>
        {label}
        {required && <RequiredMark />}
      </Label>
      {children}
      <FieldMessages id={id} error={error} warning={warning} hint={hint} />
    </div>
  );
}

/** A field that is a group of controls: a fieldset whose legend is the label. */
export function FieldSet({ id, label, required, error, warning, hint, className, children }: FieldBaseProps & { children: ReactNode }) {
  return (
    <fieldset
      className={cn('flex flex-col gap-2 rounded-md', error && 'border border-destructive p-2', className)}
      data-field={id}
      data-invalid={error ? 'true' : undefined}
      aria-describedby={describedBy({ id, error, warning, hint })}
    >
      <legend className={cn('mb-1 text-sm font-medium', error && 'text-destructive')}>
        {label}
        {required && <RequiredMark />}
      </legend>
      {children}
      <FieldMessages id={id} error={error} warning={warning} hint={hint} />
    </fieldset>
  );
}
