export type CommunicationType = 'email' | 'sms' | 'note' | 'phone_log' | 'system_event';
export type CommunicationStatus = 'pending' | 'sent' | 'delivered' | 'failed';
export type Visibility = 'internal' | 'client';

/** The records a communication belongs to; any of them may be set. */
export interface Parents {
  intake_id?: string;
  assessment_id?: string;
  care_plan_id?: string;
  contract_id?: string;
}

export interface Communication {
  id: string;
  version: number;
  intake_id: string | null;
  assessment_id: string | null;
  care_plan_id: string | null;
  contract_id: string | null;
  client_name: string | null;
  communication_type: CommunicationType;
  direction: 'outbound' | 'internal';
  subject: string | null;
  content: string;
  recipient_email: string | null;
  recipient_phone: string | null;
  sender_user_id: string | null;
  sender_name: string | null;
  status: CommunicationStatus;
  failure_reason: string | null;
  sent_at: string | null;
  created_at: string;
  visibility: Visibility;
  tagged_user_ids: string[];
  tagged_user_names: string[];
}

export interface CommunicationList {
  items: Communication[];
}

export interface AttachmentInfo {
  name: string;
  size: number;
}

export interface EmailBody extends Parents {
  to: string;
  subject: string;
  body: string;
  attachments: AttachmentInfo[];
}

export interface SmsBody extends Parents {
  to: string;
  message: string;
}

export interface NoteBody extends Parents {
  subject: string;
  content: string;
  internal: boolean;
  tagged_user_ids: string[];
}

export interface CallBody extends Parents {
  phone: string;
  notes: string;
  duration: string;
  internal: boolean;
}

export type DraftKind = 'email' | 'sms' | 'note';

/** `POST /api/ai/draft`. */
export interface AiDraftBody extends Parents {
  message_type: DraftKind;
  user_input: string;
  client_name?: string;
}

export interface AiDraftResponse {
  generated_text: string;
  subject?: string | null;
}

export interface ProfileList {
  items: { id: string; full_name: string; email: string }[];
}
