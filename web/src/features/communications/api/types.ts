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
