import type { Schemas } from '@/api/types';

export type CommunicationType = Schemas['CommunicationType'];
export type CommunicationStatus = Schemas['CommunicationStatus'];
export type Visibility = Schemas['Visibility'];

/** The records a communication belongs to, as the UI sends them (ids left out when unset). */
export interface Parents {
  intake_id?: string;
  assessment_id?: string;
  care_plan_id?: string;
  contract_id?: string;
}

export type Communication = Schemas['Communication'];
export type CommunicationList = Schemas['Items_Communication'];
export type AttachmentInfo = Schemas['AttachmentInfo'];
/** A request body whose parent ids the server defaults to null. */
type WithParents<T> = Partial<Schemas['Parents']> & Omit<T, keyof Schemas['Parents']>;

export type EmailBody = WithParents<Schemas['EmailInput']>;
export type SmsBody = WithParents<Schemas['SmsInput']>;
export type NoteBody = WithParents<Schemas['NoteInput']>;
export type CallBody = WithParents<Schemas['CallLogInput']>;
export type DraftKind = 'email' | 'sms' | 'note';
export type AiDraftBody = Schemas['DraftBody'];
export type AiDraftResponse = Schemas['DraftAnswer'];
export type MessageTemplateList = Schemas['Items_MessageTemplate'];
export type ProfileList = Schemas['Items_Profile'];
export type PendingAcceptance = Schemas['PendingAcceptance'];
export type PendingAcceptanceAnswer = Schemas['PendingAcceptanceAnswer'];

/** A file an emailed reply carried (kept with it), as its metadata lists it. */
export interface ReplyAttachment {
  id: string;
  name: string;
  size: number;
}

/** The files kept with an inbound email; its metadata is free-form JSON, so each entry is checked. */
export function replyAttachments(entry: Communication): ReplyAttachment[] {
  const metadata: unknown = entry.metadata;
  if (entry.direction !== 'inbound' || typeof metadata !== 'object' || metadata === null) return [];
  const listed: unknown = (metadata as Record<string, unknown>).attachments;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { id, name, size } = item as Record<string, unknown>;
    return typeof id === 'string' && typeof name === 'string' && typeof size === 'number' ? [{ id, name, size }] : [];
  });
}
