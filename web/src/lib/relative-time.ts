/** The spec's relative-time labels; apart from lib/format so the first page load stays small. */
import { differenceInCalendarDays } from 'date-fns';
import { parseDate } from './format';

/** Whole calendar days from `value` to now (local time), or null for no date. */
export function daysSince(value: string | null | undefined, now: Date = new Date()): number | null {
  const date = parseDate(value);
  return date ? differenceInCalendarDays(now, date) : null;
}

/** The spec's relative-time label: Today, Yesterday, N days ago (under 7), N weeks ago (under 30), N months ago. */
export function relativeDays(value: string | null | undefined, empty = 'Never', now: Date = new Date()): string {
  const days = daysSince(value, now);
  if (days === null) return empty;
  if (days <= 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days < 7) return `${days} days ago`;
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  if (days < 30) return plural(Math.floor(days / 7), 'week');
  return plural(Math.floor(days / 30), 'month');
}
