export type ContactType = 'primary' | 'family' | 'emergency' | 'other';

export const CONTACT_TYPE_LABELS: Record<ContactType, string> = {
  primary: 'Primary Contact',
  family: 'Family Member',
  emergency: 'Emergency Contact',
  other: 'Other',
};

export interface Contact {
  id: string;
  version: number;
  intake_id: string;
  contact_type: ContactType;
  contact_type_label: string;
  full_name: string;
  relationship: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  notes: string | null;
  is_primary: boolean;
  created_at: string;
}

export interface ContactInput {
  contact_type: ContactType;
  full_name: string;
  relationship: string;
  phone: string;
  email: string;
  address: string;
  notes: string;
  is_primary: boolean;
}

export interface ContactList {
  items: Contact[];
}
