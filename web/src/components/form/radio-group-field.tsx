import { cn } from '@/lib/cn';
import { FieldSet, type FieldBaseProps } from './field';
import { optionId, toOptions, type Options } from './options';

export interface RadioGroupFieldProps extends FieldBaseProps {
  value: string;
  onChange: (value: string) => void;
  options: Options;
  disabled?: boolean;
  inline?: boolean;
}

export function RadioGroupField({ value, onChange, options, disabled, inline = true, ...field }: RadioGroupFieldProps) {
  return (
    <FieldSet {...field}>
      <div className={cn('flex gap-x-4 gap-y-2', inline ? 'flex-row flex-wrap' : 'flex-col')}>
        {toOptions(options).map((option) => {
          const id = optionId(field.id, option.value);
          return (
            <label key={option.value} htmlFor={id} className="flex items-center gap-2 text-sm">
              <input
                id={id}
                type="radio"
                name={field.id}
                className="size-4 accent-primary"
                value={option.value}
                checked={value === option.value}
                disabled={disabled}
                onChange={() => onChange(option.value)}
              />
              {option.label}
            </label>
          );
        })}
      </div>
    </FieldSet>
  );
}
