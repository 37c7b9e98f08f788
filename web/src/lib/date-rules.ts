import { format } from 'date-fns';

/** Today in the browser's zone as YYYY-MM-DD, for date inputs' min and max. */
export function todayIso(now: Date = new Date()): string {
  return format(now, 'yyyy-MM-dd');
}

/** A date counts as past when it is before the start of today. */
export function isPastDate(value: string, now: Date = new Date()): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return value < todayIso(now);
}

export function isFutureDate(value: string, now: Date = new Date()): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return value > todayIso(now);
}

export const FUTURE_DATE_WARNING = 'Date should be in the future';
