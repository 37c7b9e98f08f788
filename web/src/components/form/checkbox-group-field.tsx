import { cn } from '@/lib/cn';
import { FieldSet, type FieldBaseProps } from './field';
import { optionId, toOptions, type Options } from './options';

export interface CheckboxGroupFieldProps extends FieldBaseProps {
  value: readonly string[];
  onChange: (value: string[]) => void;
  options: Options;
  disabled?: boolean;
  columns?: 1 | 2 | 3;
}

export function CheckboxGroupField({ value, onChange, options, disabled, columns = 2, ...field }: CheckboxGroupFieldProps) {
  const toggle = (option: string, checked: boolean) => {
    onChange(checked ? [...value, option] : value.filter((item) => item !== option));
  };
  return (
    <FieldSet {...field}>
      <div className={cn('grid gap-2', columns === 2 && 'sm:grid-cols-2', columns === 3 && 'sm:grid-cols-3')}>
        {toOptions(options).map((option) => {
          const id = optionId(field.id, option.value);
          return (
            <label key={option.value} htmlFor={id} className="flex items-center gap-2 text-sm">
              <input
                id={id}
                type="checkbox"
                className="size-4 accent-primary"
                checked={value.includes(option.value)}
                disabled={disabled}
                onChange={(event) => toggle(option.value, event.target.checked)}
              />
              {option.label}
            </label>
          );
        })}
      </div>
    </FieldSet>
  );
}

export interface CheckboxFieldProps {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

export function CheckboxField({ id, label, checked, onChange, disabled }: CheckboxFieldProps) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium" data-field={id}>
      <input id={id} type="checkbox" className="size-4 accent-primary" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}
