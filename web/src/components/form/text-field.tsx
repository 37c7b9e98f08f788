import type { HTMLInputTypeAttribute } from 'react';
import { Input } from '@/components/ui/input';
import { describedBy, Field, type FieldBaseProps } from './field';

export interface TextFieldProps extends FieldBaseProps {
  value: string;
  onChange: (value: string) => void;
  type?: HTMLInputTypeAttribute;
  disabled?: boolean;
  readOnly?: boolean;
  placeholder?: string;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel' | 'email';
}

export function TextField({ value, onChange, type = 'text', disabled, readOnly, placeholder, min, max, step, autoComplete, inputMode, ...field }: TextFieldProps) {
  return (
    <Field {...field}>
      <Input
        id={field.id}
        name={field.id}
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        readOnly={readOnly}
        placeholder={placeholder}
        min={min}
        max={max}
        step={step}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-required={field.required || undefined}
        aria-invalid={field.error ? true : undefined}
        aria-describedby={describedBy(field)}
      />
    </Field>
  );
}
