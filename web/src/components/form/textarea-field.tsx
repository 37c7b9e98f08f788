import { Textarea } from '@/components/ui/input';
import { describedBy, Field, type FieldBaseProps } from './field';

export interface TextareaFieldProps extends FieldBaseProps {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  placeholder?: string;
  rows?: number;
}

export function TextareaField({ value, onChange, disabled, placeholder, rows = 3, ...field }: TextareaFieldProps) {
  return (
    <Field {...field}>
      <Textarea
        id={field.id}
        name={field.id}
        value={value}
        rows={rows}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        placeholder={placeholder}
        aria-required={field.required || undefined}
        aria-invalid={field.error ? true : undefined}
        aria-describedby={describedBy(field)}
      />
    </Field>
  );
}
