import { describe, expect, it } from 'vitest';
import { countSms, smsCounterText } from './sms';

describe('countSms', () => {
  it.each([
    ['', 0, 0],
    ['a', 1, 1],
    ['x'.repeat(160), 160, 1],
    ['x'.repeat(161), 161, 2],
    ['x'.repeat(320), 320, 2],
    ['x'.repeat(321), 321, 3],
  ])('counts %#', (message, characters, segments) => {
    expect(countSms(message)).toEqual({ characters, segments });
  });

  it('says segment in the singular for one', () => {
    expect(smsCounterText('hello')).toBe('5 characters · 1 segment');
    expect(smsCounterText('x'.repeat(200))).toBe('200 characters · 2 segments');
  });
});
