import { describe, expect, it } from 'vitest';
import { isFutureDate, isPastDate, todayIso } from './date-rules';

const noon = new Date(2026, 4, 15, 12, 0);

describe('date rules', () => {
  it('knows today', () => {
    expect(todayIso(noon)).toBe('2026-05-15');
  });

  it('counts a date as past only before the start of today', () => {
    expect(isPastDate('2026-05-14', noon)).toBe(true);
    expect(isPastDate('2026-05-15', noon)).toBe(false);
    expect(isPastDate('2026-05-16', noon)).toBe(false);
    expect(isPastDate('', noon)).toBe(false);
  });

  it('knows a future date', () => {
    expect(isFutureDate('2026-05-16', noon)).toBe(true);
    expect(isFutureDate('2026-05-15', noon)).toBe(false);
  });
});
