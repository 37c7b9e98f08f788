import { describe, expect, it } from 'vitest';
import { analyticsAddress, defaultAnalyticsRange } from './address';

describe('defaultAnalyticsRange', () => {
  it('is the 90 days up to today, today included, across months and a leap day', () => {
    expect(defaultAnalyticsRange(new Date(2026, 2, 1, 9, 30))).toEqual({ from: '2025-12-02', to: '2026-03-01' });
    expect(defaultAnalyticsRange(new Date(2028, 2, 30))).toEqual({ from: '2028-01-01', to: '2028-03-30' });
  });
});

describe('analyticsAddress', () => {
  it('asks for the range as the server reads it', () => {
    expect(analyticsAddress('2026-01-01', '2026-03-31')).toBe('/api/analytics?from=2026-01-01&to=2026-03-31');
  });
});
