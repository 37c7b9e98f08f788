import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Loading } from '@/components/loading';
import { PageHeader } from '@/components/page-header';
import { SelectField } from '@/components/form/select-field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { titleCase } from '@/lib/format';
import { useMe } from '@/features/auth/api/auth';
import { useDeleteMessageTemplate, useMessageTemplates, useSaveMessageTemplate, type MessageTemplate, type MessageTemplateInput } from '../api/message-templates';

const REQUIRED_MESSAGE = 'Please fill in required fields';
const TYPES = [
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'SMS' },
];
const STAGES = ['general', 'intake', 'assessment', 'care_plan', 'contract'].map((value) => ({ value, label: titleCase(value) }));
const EMPTY: MessageTemplateInput = { name: '', message_type: 'email', stage: 'general', subject_template: '', ai_prompt_template: '', is_active: true };

function TemplateDialog({ existing, onClose }: { existing?: MessageTemplate; onClose: () => void }) {
  const [values, setValues] = useState<MessageTemplateInput>(
    existing
      ? {
          name: existing.name,
          message_type: existing.message_type,
          stage: existing.stage,
          subject_template: existing.subject_template ?? '',
          ai_prompt_template: existing.ai_prompt_template,
          is_active: existing.is_active,
        }
      : EMPTY,
  );
  const [error, setError] = useState('');
  const save = useSaveMessageTemplate();
  const submit = () => {
    if (values.name.trim() === '' || values.ai_prompt_template.trim() === '') {
      setError(REQUIRED_MESSAGE);
      return;
    }
    setError('');
    const template = { ...values, subject_template: values.message_type === 'email' ? values.subject_template : '' };
    save.mutate(
      { existing, template },
      {
        onSuccess: () => {
          toast.success(existing ? 'Template updated successfully' : 'Template created successfully');
          onClose();
        },
        onError: (failure) => toast.error('Error', { description: errorMessage(failure, 'Failed to save template') }),
      },
    );
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{existing ? 'Edit Template' : 'New Template'}</DialogTitle>
          <DialogDescription>The AI drafting in every send dialog offers the active templates of the client's stage.</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField id="message-template-name" label="Name" required value={values.name} onChange={(name) => setValues({ ...values, name })} />
          <SelectField
            id="message-template-type"
            label="Message Type"
            options={TYPES}
            value={values.message_type}
            onChange={(message_type) => setValues({ ...values, message_type: message_type as MessageTemplateInput['message_type'] })}
          />
          <SelectField
            id="message-template-stage"
            label="Stage"
            options={STAGES}
            value={values.stage}
            onChange={(stage) => setValues({ ...values, stage: stage as MessageTemplateInput['stage'] })}
          />
          {values.message_type === 'email' && (
            <TextField
              id="message-template-subject"
              label="Subject Template"
              value={values.subject_template}
              onChange={(subject_template) => setValues({ ...values, subject_template })}
            />
          )}
          <TextareaField
            id="message-template-prompt"
            label="AI Prompt Template"
            required
            rows={5}
            hint="What the AI should write; placeholders such as {clientName} are filled with the client's facts."
            value={values.ai_prompt_template}
            onChange={(ai_prompt_template) => setValues({ ...values, ai_prompt_template })}
          />
          <SwitchField id="message-template-active" label="Active" checked={values.is_active} onChange={(is_active) => setValues({ ...values, is_active })} />
          {error && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          )}
          <FormErrorSummary error={save.error} fallback="Failed to save template" />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {existing ? 'Update Template' : 'Create Template'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function TemplateCard({ template, onEdit }: { template: MessageTemplate; onEdit: () => void }) {
  const remove = useDeleteMessageTemplate();
  // A deletion cannot be undone: the server allows it to administrators only.
  const isAdmin = useMe().data?.is_admin === true;
  return (
    <Card aria-label={template.name}>
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <CardTitle>{template.name}</CardTitle>
          <div className="flex flex-wrap gap-1">
            <Badge variant="secondary">{template.message_type === 'sms' ? 'SMS' : 'Email'}</Badge>
            <Badge variant="outline">{titleCase(template.stage)}</Badge>
            {!template.is_active && <Badge variant="warning">Inactive</Badge>}
          </div>
        </div>
        <div className="flex gap-1">
          <Button size="icon" variant="ghost" onClick={onEdit} aria-label={`Edit ${template.name}`} title="Edit">
            <Pencil aria-hidden="true" />
          </Button>
          {isAdmin && (
          <Button
            size="icon"
            variant="ghost"
            aria-label={`Delete ${template.name}`}
            title="Delete"
            disabled={remove.isPending}
            onClick={() => {
              if (!window.confirm('Are you sure you want to delete this template?')) return;
              remove.mutate(template.id, {
                onSuccess: () => toast.success('Template deleted successfully'),
                onError: (failure) => toast.error('Error', { description: errorMessage(failure, 'Failed to delete template') }),
              });
            }}
          >
            <Trash2 aria-hidden="true" />
          </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        {template.subject_template && (
          <p>
            <span className="font-medium">Subject: </span>
            {template.subject_template}
          </p>
        )}
        <p className="line-clamp-3 text-muted-foreground">{template.ai_prompt_template}</p>
      </CardContent>
    </Card>
  );
}

export default function MessageTemplatesPage() {
  const templates = useMessageTemplates();
  const [editing, setEditing] = useState<MessageTemplate | 'new' | null>(null);
  const items = templates.data?.items ?? [];
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Message Templates"
        description="Prompts the AI drafting uses for emails and text messages, by stage."
        actions={
          <Button onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            New Template
          </Button>
        }
      />
      {templates.isPending ? (
        <Loading text="Loading templates..." />
      ) : templates.isError ? (
        <p className="text-destructive">Failed to load templates</p>
      ) : items.length === 0 ? (
        <p className="text-muted-foreground">No templates yet. Create your first template to get started.</p>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {items.map((template) => (
            <TemplateCard key={template.id} template={template} onEdit={() => setEditing(template)} />
          ))}
        </div>
      )}
      {editing && <TemplateDialog key={editing === 'new' ? 'new' : editing.id} existing={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
