import { NativeSelect } from '@/components/ui/input';
import { describedBy, Field, type FieldBaseProps } from './field';
import { toOptions, type Options } from './options';

export interface SelectFieldProps extends FieldBaseProps {
  value: string;
  onChange: (value: string) => void;
  options: Options;
  placeholder?: string;
  disabled?: boolean;
}

export function SelectField({ value, onChange, options, placeholder = 'Select...', disabled, ...field }: SelectFieldProps) {
  return (
    <Field {...field}>
      <NativeSelect
        id={field.id}
        name={field.id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        aria-required={field.required || undefined}
        aria-invalid={field.error ? true : undefined}
        aria-describedby={describedBy(field)}
      >
        <option value="">{placeholder}</option>
        {toOptions(options).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}
