import { FUTURE_DATE_WARNING, isPastDate, todayIso } from '@/lib/date-rules';
import { TextField, type TextFieldProps } from './text-field';

export interface DateFieldProps extends Omit<TextFieldProps, 'type' | 'min' | 'max'> {
  /** Minimum today, with the spec's warning when a past date is entered anyway. */
  futureOnly?: boolean;
  /** Maximum today (a date of birth cannot be in the future). */
  pastOnly?: boolean;
}

export function DateField({ futureOnly, pastOnly, warning, ...props }: DateFieldProps) {
  const today = todayIso();
  const pastWarning = futureOnly && props.value && isPastDate(props.value) ? FUTURE_DATE_WARNING : undefined;
  return (
    <TextField
      {...props}
      type="date"
      min={futureOnly ? today : undefined}
      max={pastOnly ? today : undefined}
      warning={warning ?? pastWarning}
    />
  );
}
