import { CircleAlert, CircleCheck, CircleDashed } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useChecklist, type CheckItem } from '../api/get-checklist';

function ItemIcon({ item }: { item: CheckItem }) {
  if (item.state === 'done') return <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />;
  if (item.required) return <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />;
  return <CircleDashed className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />;
}

/**
 * What an administrator has still to set up, and why it matters; the server decides each
 * item. Shown until every item is done.
 */
export function SetupChecklist({ isAdmin }: { isAdmin: boolean }) {
  const checklist = useChecklist(isAdmin);
  const items = checklist.data?.items ?? [];
  const missing = items.filter((item) => item.state !== 'done');
  if (!isAdmin || missing.length === 0) return null;
  return (
    <Card className="mb-6" aria-labelledby="setup-checklist-title">
      <CardHeader>
        <CardTitle id="setup-checklist-title">Finish Setting Up</CardTitle>
        <CardDescription>
          {missing.length} of {items.length} still to do{checklist.data?.ready ? '' : ', some of them needed before families hear from you'}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-3">
          {missing.map((item) => (
            <li key={item.key} className="flex gap-2 text-sm">
              <ItemIcon item={item} />
              <div>
                <p className="font-medium">
                  <span>{item.title}</span>
                  {item.required ? <span className="ml-2 text-xs font-normal text-destructive">Required</span> : null}
                  {item.state === 'not_configured' ? <span className="ml-2 text-xs font-normal text-muted-foreground">Not configured</span> : null}
                </p>
                <p className="text-muted-foreground">{item.why}</p>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
