import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { CheckboxGroupField } from '@/components/form/checkbox-group-field';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { profilesQueryOptions, useAddNote } from '../api/communications';
import { AiDraftBox } from './ai-draft-box';
import type { ClientContact } from './client-contact';

export function AddNoteDialog({ contact, open, onOpenChange }: { contact: ClientContact; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">{open && <NoteForm contact={contact} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}

function NoteForm({ contact, onDone }: { contact: ClientContact; onDone: () => void }) {
  const [subject, setSubject] = useState('');
  const [content, setContent] = useState('');
  const [internal, setInternal] = useState(true);
  const [tagged, setTagged] = useState<string[]>([]);
  const profiles = useQuery(profilesQueryOptions);
  const add = useAddNote();

  const onSave = () => {
    if (!content.trim()) {
      toast.error('Please enter a note');
      return;
    }
    add.mutate(
      { ...contact.parents, subject: subject.trim(), content, internal, tagged_user_ids: internal ? tagged : [] },
      {
        onSuccess: () => {
          toast.success('Note added successfully!');
          onDone();
        },
      },
    );
  };

  const teamOptions = (profiles.data?.items ?? []).map((profile) => ({ value: profile.id, label: profile.full_name || profile.email }));
  return (
    <>
      <DialogHeader>
        <DialogTitle>Add Note</DialogTitle>
        <DialogDescription>About {contact.clientName || 'this client'}</DialogDescription>
      </DialogHeader>
      <AiDraftBox id="note-ai-prompt" kind="note" parents={contact.parents} clientName={contact.clientName} onDraft={(text) => setContent(text)} />
      <TextField id="note-subject" label="Subject" value={subject} onChange={setSubject} />
      <TextareaField id="note-content" label="Note" value={content} onChange={setContent} rows={5} required />
      <SwitchField id="note-internal" label="Internal note" description="Team only. Switch off to make the note visible to the client." checked={internal} onChange={setInternal} />
      {internal && teamOptions.length > 0 && <CheckboxGroupField id="note-tagged" label="Tag team members" options={teamOptions} value={tagged} onChange={setTagged} />}
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={onSave} disabled={add.isPending}>
          {add.isPending ? 'Saving...' : 'Add Note'}
        </Button>
      </DialogFooter>
    </>
  );
}
