import { Pencil, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useMe } from '@/features/auth/api/auth';
import { useContacts, useDeleteContact } from '../api/contacts';
import { CONTACT_TYPE_LABELS, type Contact } from '../api/types';
import { ContactForm } from './contact-form';

interface ManageContactsButtonProps {
  intakeId: string | null;
  clientName: string;
  disabled?: boolean;
  /** Stores the intake when it has none yet (a new form saves a draft); resolves to its id. */
  ensureIntake?: (() => Promise<string | null>) | undefined;
}

/** "Manage Contacts (n)" and its dialog. */
export function ManageContactsButton({ intakeId, clientName, disabled, ensureIntake }: ManageContactsButtonProps) {
  const [open, setOpen] = useState(false);
  const contacts = useContacts(intakeId);
  const count = contacts.data?.items.length ?? 0;
  const onClick = async () => {
    if (intakeId || (ensureIntake && (await ensureIntake()))) setOpen(true);
  };
  return (
    <>
      <Button variant="outline" onClick={() => void onClick()} disabled={disabled || (!intakeId && !ensureIntake)}>
        <Users aria-hidden="true" />
        Manage Contacts ({count})
      </Button>
      {intakeId && <ContactsDialog intakeId={intakeId} clientName={clientName} open={open} onOpenChange={setOpen} />}
    </>
  );
}

export function ContactsDialog({ intakeId, clientName, open, onOpenChange }: { intakeId: string; clientName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Manage Contacts</DialogTitle>
          <DialogDescription>Family and emergency contacts for {clientName || 'this client'}</DialogDescription>
        </DialogHeader>
        {open && <ContactsManager intakeId={intakeId} />}
      </DialogContent>
    </Dialog>
  );
}

function ContactsManager({ intakeId }: { intakeId: string }) {
  const contacts = useContacts(intakeId);
  const remove = useDeleteContact(intakeId);
  // A deletion cannot be undone: the server allows it to administrators only.
  const isAdmin = useMe().data?.is_admin === true;
  const [editing, setEditing] = useState<Contact | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const list = contacts.data?.items ?? [];

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.success('Contact deleted successfully');
        if (editing?.id === deleting.id) setEditing(null);
      },
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <div className="flex flex-col gap-4">
      {contacts.isPending ? (
        <p className="text-sm text-muted-foreground">Loading contacts...</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-muted-foreground">No contacts yet.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Contacts">
          {list.map((contact) => (
            <li key={contact.id} className="flex items-start justify-between gap-2 rounded-md border p-3">
              <div className="flex flex-col gap-0.5 text-sm">
                <span className="flex flex-wrap items-center gap-2 font-medium">
                  {contact.full_name}
                  {contact.is_primary && <Badge>Primary</Badge>}
                  <Badge variant="outline">{CONTACT_TYPE_LABELS[contact.contact_type]}</Badge>
                </span>
                {contact.relationship && <span className="text-muted-foreground">{contact.relationship}</span>}
                {contact.phone && <span>{contact.phone}</span>}
                {contact.email && <span>{contact.email}</span>}
                {contact.address && <span className="text-muted-foreground">{contact.address}</span>}
                {contact.notes && <span className="text-muted-foreground">{contact.notes}</span>}
              </div>
              <div className="flex gap-1">
                <Button variant="ghost" size="icon" aria-label={`Edit ${contact.full_name}`} onClick={() => setEditing(contact)}>
                  <Pencil aria-hidden="true" />
                </Button>
                {isAdmin && (
                  <Button variant="ghost" size="icon" aria-label={`Delete ${contact.full_name}`} onClick={() => setDeleting(contact)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ContactForm key={editing?.id ?? 'new'} intakeId={intakeId} editing={editing} onDone={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete contact"
        description="Are you sure you want to delete this contact?"
        busy={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
