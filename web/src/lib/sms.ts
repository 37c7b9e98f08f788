import { SMS_GSM7_CHARACTER_VALUES, SMS_GSM7_EXTENSION_CHARACTER_VALUES, SMS_GSM7_SEGMENT_LIMIT_VALUES, SMS_UCS2_SEGMENT_LIMIT_VALUES } from '@/api/options.gen';

// The same rule as core's `rules::sms`, from its tables (generated into options.gen.ts):
// GSM-7 counts septets (extension characters take two), anything outside it sends the
// whole message as UCS-2 in UTF-16 units; one segment holds the first limit, a longer
// message is split into segments of the second.
const GSM7_BASIC = new Set<string>(SMS_GSM7_CHARACTER_VALUES);
const GSM7_EXTENSION = new Set<string>(SMS_GSM7_EXTENSION_CHARACTER_VALUES);

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SmsCount {
  characters: number;
  encoding: SmsEncoding;
  segments: number;
  /** The units one segment holds for this encoding: past it, the message is split. */
  singleSegmentLimit: number;
}

function segments(units: number, [single, multipart]: readonly [number, number]): number {
  if (units === 0) return 0;
  return units <= single ? 1 : Math.ceil(units / multipart);
}

export function countSms(message: string): SmsCount {
  const characters = Array.from(message);
  let septets = 0;
  let gsm7 = true;
  for (const character of characters) {
    if (GSM7_BASIC.has(character)) septets += 1;
    else if (GSM7_EXTENSION.has(character)) septets += 2;
    else {
      gsm7 = false;
      break;
    }
  }
  if (gsm7) {
    return { characters: characters.length, encoding: 'gsm7', segments: segments(septets, SMS_GSM7_SEGMENT_LIMIT_VALUES), singleSegmentLimit: SMS_GSM7_SEGMENT_LIMIT_VALUES[0] };
  }
  // A JavaScript string's length is its UTF-16 units, which is what UCS-2 bills.
  return { characters: characters.length, encoding: 'ucs2', segments: segments(message.length, SMS_UCS2_SEGMENT_LIMIT_VALUES), singleSegmentLimit: SMS_UCS2_SEGMENT_LIMIT_VALUES[0] };
}

export function smsCounterText(message: string): string {
  const { characters, segments } = countSms(message);
  return `${characters} characters · ${segments} ${segments === 1 ? 'segment' : 'segments'}`;
}

/** Settings → SMS warnings: said once a message takes more than one segment. */
export function smsLimitWarning(message: string): string | undefined {
  const { segments, singleSegmentLimit } = countSms(message);
  return segments > 1 ? `Over ${singleSegmentLimit} characters: this message will be sent as ${segments} text messages.` : undefined;
}
