import { describe, expect, it } from 'vitest';
import { addDays, dayLabel, startOfWeek, timeLabel } from './visit-dates';

describe('visit dates', () => {
  it('moves by days across months and years', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2027-03-13', 1)).toBe('2027-03-14');
  });

  it('starts a week on Monday', () => {
    expect(startOfWeek('2026-11-22')).toBe('2026-11-16');
    expect(startOfWeek('2026-11-23')).toBe('2026-11-23');
    expect(startOfWeek('2026-11-29')).toBe('2026-11-23');
  });

  it('names days and times as staff read them', () => {
    expect(dayLabel('2026-11-23')).toBe('Monday, November 23');
    expect(timeLabel('10:00')).toBe('10:00 AM');
    expect(timeLabel('00:30')).toBe('12:30 AM');
    expect(timeLabel('14:05')).toBe('2:05 PM');
  });
});

describe('a visit from an intake', () => {
  it('takes the consultation booked on the call, else the client address', async () => {
    const { visitDefaultsFromIntake } = await import('./visit-dates');
    expect(visitDefaultsFromIntake({ consultationDate: '2026-11-23', consultationTime: '10:00', consultationLocation: 'Client home', clientAddress: '12 Oak St' }, '2026-11-22')).toEqual({
      date: '2026-11-23',
      startTime: '10:00',
      place: 'Client home',
    });
    expect(visitDefaultsFromIntake({ consultationDate: '2026-11-01', consultationTime: '10:00', clientAddress: '12 Oak St', city: 'Springfield', state: 'IL', zipCode: '62701' }, '2026-11-22')).toEqual({
      place: '12 Oak St, Springfield, IL 62701',
    });
  });
});
