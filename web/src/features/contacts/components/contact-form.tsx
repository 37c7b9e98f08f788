import { useState } from 'react';
import { toast } from 'sonner';
import { CheckboxField } from '@/components/form/checkbox-group-field';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { useSaveContact } from '../api/contacts';
import { CONTACT_TYPE_LABELS, type Contact, type ContactInput, type ContactType } from '../api/types';

const EMPTY: ContactInput = { contact_type: 'family', full_name: '', relationship: '', phone: '', email: '', address: '', notes: '', is_primary: false };

const TYPE_OPTIONS = (Object.keys(CONTACT_TYPE_LABELS) as ContactType[]).map((value) => ({ value, label: CONTACT_TYPE_LABELS[value] }));

function fromContact(contact: Contact): ContactInput {
  return {
    contact_type: contact.contact_type,
    full_name: contact.full_name,
    relationship: contact.relationship ?? '',
    phone: contact.phone ?? '',
    email: contact.email ?? '',
    address: contact.address ?? '',
    notes: contact.notes ?? '',
    is_primary: contact.is_primary,
  };
}

/** Add or edit one contact; keyed by the contact so switching resets it. */
export function ContactForm({ intakeId, editing, onDone }: { intakeId: string; editing: Contact | null; onDone: () => void }) {
  const [input, setInput] = useState<ContactInput>(editing ? fromContact(editing) : EMPTY);
  const [nameError, setNameError] = useState<string | undefined>();
  const save = useSaveContact(intakeId);
  const set = <K extends keyof ContactInput>(key: K, value: ContactInput[K]) => setInput((current) => ({ ...current, [key]: value }));

  const onSave = () => {
    const trimmed: ContactInput = {
      ...input,
      full_name: input.full_name.trim(),
      relationship: input.relationship.trim(),
      phone: input.phone.trim(),
      email: input.email.trim(),
      address: input.address.trim(),
      notes: input.notes.trim(),
    };
    if (!trimmed.full_name) {
      setNameError('Contact name is required');
      toast.error('Validation Error', { description: 'Contact name is required' });
      return;
    }
    save.mutate(
      { existing: editing, input: trimmed },
      {
        onSuccess: () => {
          toast.success(editing ? 'Contact updated successfully' : 'Contact added successfully');
          setInput(EMPTY);
          onDone();
        },
      },
    );
  };

  return (
    <section aria-labelledby="contact-form-title" className="flex flex-col gap-3 rounded-md border p-4">
      <h3 id="contact-form-title" className="font-semibold">
        {editing ? 'Edit Contact' : 'Add Contact'}
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField id="contact-type" label="Contact type" value={input.contact_type} onChange={(value) => set('contact_type', (value || 'family') as ContactType)} options={TYPE_OPTIONS} />
        <TextField
          id="contact-full-name"
          label="Full name"
          value={input.full_name}
          onChange={(value) => {
            set('full_name', value);
            setNameError(undefined);
          }}
          required
          error={nameError}
        />
        <TextField id="contact-relationship" label="Relationship" value={input.relationship} onChange={(value) => set('relationship', value)} />
        <TextField id="contact-phone" label="Phone" type="tel" value={input.phone} onChange={(value) => set('phone', value)} />
        <TextField id="contact-email" label="Email" type="email" value={input.email} onChange={(value) => set('email', value)} />
        <TextField id="contact-address" label="Address" value={input.address} onChange={(value) => set('address', value)} />
      </div>
      <TextareaField id="contact-notes" label="Notes" value={input.notes} onChange={(value) => set('notes', value)} rows={2} />
      <CheckboxField id="contact-is-primary" label="Primary contact" checked={input.is_primary} onChange={(value) => set('is_primary', value)} />
      <div className="flex gap-2">
        <Button onClick={onSave} disabled={save.isPending}>
          {editing ? 'Update Contact' : 'Add Contact'}
        </Button>
        {editing && (
          <Button variant="outline" onClick={onDone}>
            Cancel Edit
          </Button>
        )}
      </div>
    </section>
  );
}
