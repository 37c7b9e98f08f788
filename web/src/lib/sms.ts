/** One SMS segment holds 160 characters. */
export const SMS_SEGMENT_SIZE = 160;

export interface SmsCount {
  characters: number;
  segments: number;
}

export function countSms(message: string): SmsCount {
  const characters = message.length;
  return { characters, segments: Math.ceil(characters / SMS_SEGMENT_SIZE) };
}

export function smsCounterText(message: string): string {
  const { characters, segments } = countSms(message);
  return `${characters} characters · ${segments} ${segments === 1 ? 'segment' : 'segments'}`;
}
