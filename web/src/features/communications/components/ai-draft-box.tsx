import { Sparkles } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { SelectField } from '@/components/form/select-field';
import { draftWithAi, useOfferedTemplates } from '../api/communications';
import { aiDraftErrorText } from '../api/ai-errors';
import type { DraftKind, Parents } from '../api/types';

interface AiDraftBoxProps {
  id: string;
  kind: DraftKind;
  parents: Parents;
  clientName: string;
  onDraft: (text: string, subject: string | null) => void;
}

const TEXTS: Record<DraftKind, { empty: string; success: string; failure: string; label: string }> = {
  email: { empty: 'Please describe what you want to write', success: 'Message generated! You can edit it before sending.', failure: 'Failed to generate message', label: 'Describe the email for AI to draft' },
  sms: { empty: 'Please describe what you want to write', success: 'Message generated! You can edit it before sending.', failure: 'Failed to generate message', label: 'Describe the text message for AI to draft' },
  note: { empty: "Please enter what you'd like the note to say", success: 'Note generated with AI!', failure: 'Failed to generate note', label: 'Describe the note for AI to draft' },
};

export function AiDraftBox({ id, kind, parents, clientName, onDraft }: AiDraftBoxProps) {
  const [prompt, setPrompt] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [busy, setBusy] = useState(false);
  const texts = TEXTS[kind];
  const offered = useOfferedTemplates(kind, parents.intake_id ?? null).data?.items ?? [];
  // A template that is no longer offered (switched off meanwhile) is not sent.
  const chosen = offered.some((template) => template.id === templateId) ? templateId : '';

  const generate = async () => {
    // A chosen template says what to write; otherwise staff must describe it.
    if (!prompt.trim() && !chosen) {
      toast.error(texts.empty);
      return;
    }
    setBusy(true);
    try {
      const template = chosen ? { template_id: chosen } : {};
      const body = kind === 'note' ? { ...parents, message_type: kind, user_input: prompt.trim() } : { ...parents, ...template, message_type: kind, user_input: prompt.trim(), client_name: clientName };
      const draft = await draftWithAi(body);
      onDraft(draft.generated_text, draft.subject ?? null);
      toast.success(texts.success);
    } catch (error) {
      toast.error('Error', { description: aiDraftErrorText(error, texts.failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-1.5 rounded-md border border-dashed p-3">
      {offered.length > 0 && (
        <SelectField
          id={`${id}-template`}
          label="Template"
          value={chosen}
          onChange={setTemplateId}
          placeholder="No template"
          options={offered.map((template) => ({ value: template.id, label: template.name }))}
        />
      )}
      <label htmlFor={id} className="text-sm font-medium">
        {texts.label}
      </label>
      <div className="flex gap-2">
        <Input id={id} value={prompt} onChange={(event) => setPrompt(event.target.value)} placeholder="e.g. remind the family about Tuesday's visit" />
        <Button variant="secondary" onClick={() => void generate()} disabled={busy}>
          <Sparkles aria-hidden="true" />
          {busy ? 'Generating...' : 'Generate'}
        </Button>
      </div>
    </div>
  );
}
