import { describe, expect, it } from 'vitest';
import sharedCasesText from '../../../fixtures/sms-segments.json?raw';
import { countSms, smsCounterText, smsLimitWarning } from './sms';

interface SharedCase {
  name: string;
  parts: [string, number][];
  characters: number;
  encoding: 'gsm7' | 'ucs2';
  segments: number;
}

// The cases core's `rules::sms` tests too, so the counter and core agree.
const cases = JSON.parse(sharedCasesText) as SharedCase[];

describe('countSms', () => {
  it('reads the shared cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const message = c.parts.map(([text, times]) => text.repeat(times)).join('');
    const { characters, encoding, segments } = countSms(message);
    expect({ characters, encoding, segments }).toEqual({ characters: c.characters, encoding: c.encoding, segments: c.segments });
  });

  it('says segment in the singular for one', () => {
    expect(smsCounterText('hello')).toBe('5 characters · 1 segment');
    expect(smsCounterText('x'.repeat(200))).toBe('200 characters · 2 segments');
  });

  it('warns past one segment, at the limit of the message encoding', () => {
    expect(smsLimitWarning('x'.repeat(160))).toBeUndefined();
    expect(smsLimitWarning('x'.repeat(161))).toBe('Over 160 characters: this message will be sent as 2 text messages.');
    expect(smsLimitWarning('👋'.repeat(36))).toBe('Over 70 characters: this message will be sent as 2 text messages.');
  });
});
