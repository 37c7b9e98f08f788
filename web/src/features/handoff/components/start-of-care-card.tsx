import { ClipboardCheck, Download } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { handoffUrl, useSetStartOfCareItem, useStartOfCare, type StartOfCareItem } from '../api/handoff';

/**
 * A signed client's start of care: the agency's checklist as it was copied at signing (who
 * ticked each item and when), and the hand-off the scheduling system imports.
 */
export function StartOfCareCard({ intakeId, clientName }: { intakeId: string; clientName: string }) {
  const checklist = useStartOfCare(intakeId, true);
  const setItem = useSetStartOfCareItem(intakeId);
  // What was asked of each item while its change is on its way, set in the click itself
  // so the box follows the click at once; the stored checklist replaces it when it lands.
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  const settle = (id: string) => setAsked((current) => Object.fromEntries(Object.entries(current).filter(([key]) => key !== id)));
  const toggle = (item: StartOfCareItem, done: boolean) => {
    setAsked((current) => ({ ...current, [item.id]: done }));
    setItem.mutate(
      { itemId: item.id, input: { done, version: item.version } },
      {
        onSuccess: () => toast.success(done ? `${item.label} marked done` : `${item.label} marked not done`),
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The change was not saved') }),
        onSettled: () => settle(item.id),
      },
    );
  };
  const shownDone = (item: StartOfCareItem) => asked[item.id] ?? item.done;
  const data = checklist.data;
  return (
    <Card aria-labelledby="start-of-care-title">
      <CardHeader>
        <CardTitle id="start-of-care-title" className="flex items-center gap-2">
          <ClipboardCheck className="size-4" aria-hidden="true" />
          Start of Care
        </CardTitle>
        <CardDescription>
          {data ? `${data.done_count} of ${data.items.length} done · contract signed ${formatDateTime(data.signed_at)}` : `The first steps of care for ${clientName}.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {checklist.isPending && <p className="text-sm text-muted-foreground">Loading checklist...</p>}
        {checklist.isError && <p className="text-sm text-destructive">{errorMessage(checklist.error, 'Failed to load the start-of-care checklist')}</p>}
        {data && data.items.length === 0 && <p className="text-sm text-muted-foreground">The agency's checklist was empty when the contract was signed.</p>}
        {data && data.items.length > 0 && (
          <ul className="flex flex-col gap-2" aria-label="Start-of-care checklist">
            {data.items.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border p-3 text-sm">
                <label htmlFor={`start-of-care-${item.id}`} className="flex items-center gap-2 font-medium">
                  <input
                    id={`start-of-care-${item.id}`}
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={shownDone(item)}
                    disabled={setItem.isPending}
                    onChange={(event) => toggle(item, event.target.checked)}
                  />
                  {item.label}
                </label>
                {item.done && (
                  <span className="text-muted-foreground">
                    Done by {item.done_by ?? 'Carepath'} on {formatDateTime(item.done_at)}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={handoffUrl(intakeId, 'csv')} download>
              <Download aria-hidden="true" />
              Download hand-off (CSV)
            </a>
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={handoffUrl(intakeId, 'json')} download={`handoff-${intakeId}.json`}>
              <Download aria-hidden="true" />
              Download hand-off (JSON)
            </a>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
