import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, statusText, titleCase } from './format';

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
