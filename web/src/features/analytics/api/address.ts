// Where the analytics screen reads its report, in a module with nothing heavy to import:
// the page's first-data script (src/first-data.ts) asks for the opening range's report
// before the app has loaded, and the screen asks with it after.
import { withQuery } from '@/lib/api-client';

const isoDate = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The range the analytics screen opens on: the last 90 days, today included. */
export function defaultAnalyticsRange(today = new Date()): { from: string; to: string } {
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 89);
  return { from: isoDate(from), to: isoDate(today) };
}

/** Where the report of `from` to `to` (both `YYYY-MM-DD`, included) is read. */
export const analyticsAddress = (from: string, to: string) => withQuery('/api/analytics', { from, to });
