import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, statusText, titleCase } from './format';
import { formatMoney } from './money';
import { daysSince, relativeDays } from './relative-time';

describe('formatDateTime', () => {
  it('uses the timeline format', () => {
    const local = new Date(2025, 0, 5, 15, 7);
    expect(formatDateTime(local.toISOString())).toBe('Jan 5, 2025 3:07 PM');
  });

  it('shows nothing for a missing or broken value', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});

describe('formatDate', () => {
  it('reads a plain date as a local calendar day', () => {
    expect(formatDate('2025-03-09')).toBe('Mar 9, 2025');
  });

  it('falls back to the given empty text', () => {
    expect(formatDate(null, 'Never')).toBe('Never');
  });
});

describe('formatMoney', () => {
  it('groups thousands and keeps the cents, as the documents print money', () => {
    expect(formatMoney(1974.48)).toBe('$1,974.48');
    expect(formatMoney(1234567)).toBe('$1,234,567.00');
    expect(formatMoney(32)).toBe('$32.00');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('shows nothing for a missing value', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney(Number.NaN)).toBe('');
  });
});

describe('statusText', () => {
  it('upper-cases and replaces underscores', () => {
    expect(statusText('intake_created')).toBe('INTAKE CREATED');
  });
});

describe('titleCase', () => {
  it('turns a stored value into a label', () => {
    expect(titleCase('care_plan')).toBe('Care Plan');
  });
});

describe('relative days', () => {
  const now = new Date(2026, 0, 10, 9, 30);
  it('says Today, Yesterday, days, weeks and months by calendar day', () => {
    expect(relativeDays('2026-01-10T01:00:00', 'Never', now)).toBe('Today');
    expect(relativeDays('2026-01-09T23:59:00', 'Never', now)).toBe('Yesterday');
    expect(relativeDays('2026-01-04', 'Never', now)).toBe('6 days ago');
    expect(relativeDays('2026-01-03', 'Never', now)).toBe('1 week ago');
    expect(relativeDays('2025-12-12', 'Never', now)).toBe('4 weeks ago');
    expect(relativeDays('2025-11-01', 'Never', now)).toBe('2 months ago');
    expect(relativeDays(null, 'Never', now)).toBe('Never');
    expect(daysSince('2026-01-07', now)).toBe(3);
  });
});
