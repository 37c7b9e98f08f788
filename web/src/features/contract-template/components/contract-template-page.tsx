import { Copy, History, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Loading } from '@/components/loading';
import { PageHeader } from '@/components/page-header';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';
import {
  useContractTemplate,
  useContractTemplateVersions,
  useCreateContractTemplateVersion,
  useLoadContractTemplateVersion,
  useSaveContractTemplate,
  type ContractSection,
  type ContractTemplate,
} from '../api/contract-template';

const REQUIRED_SECTION = 'This is a required section and cannot be removed.';
const renumber = (sections: ContractSection[]) => sections.map((section, index) => ({ ...section, order: index + 1 }));
const newId = () => `section-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

function AddSectionDialog({ onAdd, onClose }: { onAdd: (title: string, content: string) => void; onClose: () => void }) {
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Section</DialogTitle>
          <DialogDescription>A new section at the end of the contract.</DialogDescription>
        </DialogHeader>
        <TextField id="new-section-title" label="Section Title" required value={title} onChange={setTitle} />
        <TextareaField id="new-section-content" label="Section Content" required rows={6} value={content} onChange={setContent} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={title.trim() === '' || content.trim() === ''} onClick={() => onAdd(title.trim(), content)}>
            Add
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function VersionsDialog({ current, onClose, onNewVersion }: { current: ContractTemplate; onClose: () => void; onNewVersion: () => void }) {
  const versions = useContractTemplateVersions(true);
  const load = useLoadContractTemplateVersion();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Template Versions</DialogTitle>
          <DialogDescription>Choose a version to load, or save the current sections as a new version.</DialogDescription>
        </DialogHeader>
        <ul className="flex flex-col gap-2">
          {(versions.data?.items ?? []).map((version) => (
            <li key={version.id} className="flex items-center justify-between gap-2 rounded-md border p-2 text-sm">
              <span>
                <span className="font-medium">Version {version.template_version}</span>
                <span className="ml-2 text-muted-foreground">{formatDateTime(version.created_at)}</span>
              </span>
              {version.id === current.id ? (
                <Badge>Current</Badge>
              ) : (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={load.isPending}
                  onClick={() =>
                    load.mutate(version.id, {
                      onSuccess: () => {
                        toast.success(`Version ${version.template_version} loaded`);
                        onClose();
                      },
                      onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to load the version') }),
                    })
                  }
                >
                  Load
                </Button>
              )}
            </li>
          ))}
          {versions.data?.items.length === 0 && <li className="text-sm text-muted-foreground">Only the built-in template so far.</li>}
        </ul>
        <DialogFooter>
          <Button onClick={onNewVersion}>Create New Version</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function TemplateEditor({ template }: { template: ContractTemplate }) {
  const [name, setName] = useState(template.name);
  const [sections, setSections] = useState<ContractSection[]>(template.sections);
  const [adding, setAdding] = useState(false);
  const [showVersions, setShowVersions] = useState(false);
  const save = useSaveContractTemplate();
  const createVersion = useCreateContractTemplateVersion();
  const edit = (id: string, patch: Partial<ContractSection>) => setSections((all) => all.map((section) => (section.id === id ? { ...section, ...patch } : section)));
  const input = { name, sections: renumber(sections) };
  const fail = (error: unknown) => toast.error('Error', { description: errorMessage(error, 'Failed to save the template') });
  // The built-in template has never been saved: its first save is a version of its own.
  const isBuiltIn = template.version === 0;

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardContent className="grid gap-3 pt-6 sm:grid-cols-3">
          <TextField id="contract-template-name" label="Template Name" value={name} onChange={setName} />
          <TextField id="contract-template-version" label="Version" value={template.template_version} readOnly onChange={() => undefined} />
          <TextField id="contract-template-created" label="Created" value={formatDate(template.created_at)} readOnly onChange={() => undefined} />
        </CardContent>
      </Card>
      <p className="rounded-md border bg-muted p-3 text-sm">
        Tip: use [VARIABLE_NAME] placeholders such as [CLIENT_NAME], [AGENCY_NAME], [HOURLY_RATE], [WEEKLY_COST], [MONTHLY_COST], [SERVICES], [SCHEDULE] and [DATE]; each contract fills them in.
      </p>
      {sections.map((section, index) => (
        <Card key={section.id} aria-label={`Section ${index + 1}`}>
          <CardHeader className="flex flex-row items-center justify-between gap-2">
            <CardTitle className="flex items-center gap-2">
              <span>Section {index + 1}</span>
              {section.required && <Badge variant="secondary">Required</Badge>}
            </CardTitle>
            <div className="flex gap-1">
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Duplicate section ${index + 1}`}
                onClick={() => setSections((all) => [...all.slice(0, index + 1), { ...section, id: newId(), title: `${section.title} (Copy)`, required: false }, ...all.slice(index + 1)])}
              >
                <Copy aria-hidden="true" />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Delete section ${index + 1}`}
                disabled={section.required}
                title={section.required ? REQUIRED_SECTION : 'Delete'}
                onClick={() => {
                  if (section.required) {
                    toast.error(REQUIRED_SECTION);
                    return;
                  }
                  setSections((all) => all.filter((other) => other.id !== section.id));
                }}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <TextField id={`${section.id}-title`} label="Title" value={section.title} onChange={(title) => edit(section.id, { title })} />
            <TextareaField id={`${section.id}-content`} label="Content" rows={6} value={section.content} onChange={(content) => edit(section.id, { content })} />
          </CardContent>
        </Card>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" />
          Add Section
        </Button>
        <Button variant="outline" onClick={() => setShowVersions(true)}>
          <History aria-hidden="true" />
          Versions
        </Button>
        <Button
          disabled={save.isPending || createVersion.isPending}
          onClick={() =>
            (isBuiltIn ? createVersion.mutateAsync(input) : save.mutateAsync({ version: template.version, template: input })).then(
              () => toast.success('Contract template saved successfully'),
              fail,
            )
          }
        >
          Save Changes
        </Button>
      </div>
      {adding && (
        <AddSectionDialog
          onClose={() => setAdding(false)}
          onAdd={(title, content) => {
            setSections((all) => [...all, { id: newId(), title, content, order: all.length + 1, required: false }]);
            setAdding(false);
          }}
        />
      )}
      {showVersions && (
        <VersionsDialog
          current={template}
          onClose={() => setShowVersions(false)}
          onNewVersion={() => {
            // The editor is replaced by the new version's once it loads, so the toast follows the promise.
            createVersion.mutateAsync(input).then((created) => toast.success(`Version ${created.template_version} created`), fail);
            setShowVersions(false);
          }}
        />
      )}
    </div>
  );
}

export default function ContractTemplatePage() {
  const template = useContractTemplate();
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      <PageHeader title="Contract Template" description="The sections every new contract is written from." />
      {template.isPending ? (
        <Loading text="Loading template..." />
      ) : template.data ? (
        <TemplateEditor key={`${template.data.id}-${template.data.version}`} template={template.data} />
      ) : (
        <p className="text-destructive">Failed to load the contract template</p>
      )}
    </div>
  );
}
