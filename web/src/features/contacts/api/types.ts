import type { Schemas } from '@/api/types';

export type ContactType = Schemas['ContactType'];

export const CONTACT_TYPE_LABELS: Record<ContactType, string> = {
  primary: 'Primary Contact',
  family: 'Family Member',
  emergency: 'Emergency Contact',
  other: 'Other',
};

export type Contact = Schemas['Contact'];
export type ContactInput = Schemas['ContactInput'];
export type ContactList = Schemas['Items_Contact'];
