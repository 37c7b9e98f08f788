import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { DateField } from '@/components/form/date-field';
import { SelectField } from '@/components/form/select-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useMe } from '@/features/auth/api/auth';
import { profilesQueryOptions } from '@/features/communications/api/communications';
import { isApiError } from '@/lib/api-client';
import { todayIso } from '@/lib/date-rules';
import { formatDate } from '@/lib/format';
import { useAddTask, useClientTasks, useMarkDone, useSetOwner, type ClientProfile } from '../api/queue';

const UNASSIGNED = '';

/** The client's coordinator (a select of active staff; a disabled owner is still named)
 * and its tasks, on the client profile. */
export function ClientWorkCard({ profile }: { profile: ClientProfile }) {
  const { intake, owner } = profile;
  const profiles = useQuery(profilesQueryOptions);
  const setOwner = useSetOwner();
  const tasks = useClientTasks(intake.id);
  const done = useMarkDone();
  const [adding, setAdding] = useState(false);
  const staff = profiles.data?.items ?? [];
  const options = [
    ...staff.map((person) => ({ value: person.id, label: person.full_name })),
    ...(owner && !staff.some((person) => person.id === owner.id) ? [{ value: owner.id, label: `${owner.full_name} (disabled)` }] : []),
  ];
  const open = (tasks.data?.items ?? []).filter((task) => !task.done_at);
  return (
    <Card aria-labelledby="client-work-title">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle id="client-work-title">Coordinator and Tasks</CardTitle>
        <Button size="sm" variant="outline" onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" />
          Add Task
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <SelectField
          id="client-owner"
          label="Coordinator"
          value={owner?.id ?? UNASSIGNED}
          placeholder="Unassigned"
          options={options}
          disabled={setOwner.isPending}
          onChange={(ownerId) =>
            setOwner.mutate(
              { intakeId: intake.id, ownerId: ownerId || null },
              { onSuccess: (answer) => toast.success('Coordinator Changed', { description: answer.owner ? `${intake.client_full_name} is now ${answer.owner.full_name}'s.` : `${intake.client_full_name} is unassigned.` }) },
            )
          }
        />
        {open.length > 0 && (
          <ul className="flex flex-col gap-2" aria-label="Open tasks">
            {open.map((task) => (
              <li key={task.id} className="flex flex-wrap items-center gap-2 rounded-md border p-2 text-sm">
                <Badge variant="outline">{formatDate(task.due_date)}</Badge>
                <span className="flex-1">{task.note}</span>
                <span className="text-muted-foreground">{task.assignee_name}</span>
                <Button size="sm" variant="outline" onClick={() => done.mutate({ kind: 'task', id: task.id })} aria-label={`Mark Done: ${task.note}`}>
                  Mark Done
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <Dialog open={adding} onOpenChange={setAdding}>
        <DialogContent>{adding && <TaskForm intakeId={intake.id} clientName={intake.client_full_name} onDone={() => setAdding(false)} />}</DialogContent>
      </Dialog>
    </Card>
  );
}

function TaskForm({ intakeId, clientName, onDone }: { intakeId: string; clientName: string; onDone: () => void }) {
  const me = useMe();
  const profiles = useQuery(profilesQueryOptions);
  const [assignee, setAssignee] = useState(me.data?.id ?? '');
  const [due, setDue] = useState(todayIso());
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useAddTask();
  const onSave = () =>
    add.mutate(
      { intakeId, body: { assignee_id: assignee || null, due_date: due, note } },
      {
        onSuccess: (task) => {
          toast.success('Task Added', { description: `For ${task.assignee_name}, due ${formatDate(task.due_date)}.` });
          onDone();
        },
        onError: (error) => setErrors(isApiError(error) ? error.fields : {}),
      },
    );
  return (
    <>
      <DialogHeader>
        <DialogTitle>Add Task</DialogTitle>
        <DialogDescription>A dated task on {clientName}; it joins the assignee's Today on its day.</DialogDescription>
      </DialogHeader>
      <SelectField
        id="task-assignee"
        label="Assign to"
        value={assignee}
        placeholder="Me"
        options={(profiles.data?.items ?? []).map((person) => ({ value: person.id, label: person.full_name }))}
        onChange={setAssignee}
        error={errors.assignee_id}
      />
      <DateField id="task-due" label="Due" value={due} onChange={setDue} futureOnly required error={errors.due_date} />
      <TextareaField id="task-note" label="What needs doing" value={note} onChange={setNote} required error={errors.note} />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={onSave} disabled={add.isPending}>
          {add.isPending ? 'Saving...' : 'Add Task'}
        </Button>
      </DialogFooter>
    </>
  );
}
