import type { Parents } from '../api/types';

/** Whom the quick actions write to and which records they file the message under. */
export interface ClientContact {
  parents: Parents;
  clientName: string;
  email: string;
  phone: string;
}

export type ComposeKind = 'email' | 'sms' | 'note' | 'call';
