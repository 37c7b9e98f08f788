import { format, isValid, parseISO } from 'date-fns';

/** The timeline's timestamp format, e.g. "Jan 5, 2025 3:07 PM". */
export const DATE_TIME_FORMAT = 'MMM d, yyyy h:mm a';
export const DATE_FORMAT = 'MMM d, yyyy';

export function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? parseISO(`${value}T00:00:00`) : parseISO(value);
  return isValid(date) ? date : null;
}

export function formatDateTime(value: string | null | undefined): string {
  const date = parseDate(value);
  return date ? format(date, DATE_TIME_FORMAT) : '';
}

export function formatDate(value: string | null | undefined, empty = ''): string {
  const date = parseDate(value);
  return date ? format(date, DATE_FORMAT) : empty;
}

/** A status as the banner shows it: upper case, underscores as spaces. */
export function statusText(status: string): string {
  return status.replaceAll('_', ' ').toUpperCase();
}

/** A stored status value as a badge label: "care_plan" becomes "Care Plan". */
export function titleCase(value: string): string {
  return value
    .split('_')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export function ageText(age: number | null | undefined): string {
  return age === null || age === undefined ? '—' : String(age);
}

