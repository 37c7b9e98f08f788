import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

/** The most items and characters core takes; repeated here only to stop typing past them. */
const MAX_ITEMS = 20;
const MAX_ITEM_CHARS = 80;

/**
 * Settings → Workflow's start-of-care checklist: the items each client gets when the
 * contract is signed. Core checks the list when the tab is saved (names, length,
 * repeats); its messages show at the top of the form.
 */
export function ChecklistEditor({ items, onChange }: { items: string[]; onChange: (items: string[]) => void }) {
  // Folded by default, so the workflow form stays short enough for its Save button and
  // its error summary to share the screen.
  return (
    <details className="rounded-md border p-3">
      <summary className="cursor-pointer text-sm font-medium">
        Start-of-care checklist ({items.length} {items.length === 1 ? 'item' : 'items'})
      </summary>
      <fieldset className="mt-3 flex flex-col gap-2" aria-describedby="start_of_care_checklist-hint">
        <legend className="sr-only">Start-of-care checklist</legend>
        <p id="start_of_care_checklist-hint" className="text-sm text-muted-foreground">
          Each client whose contract is signed gets these items; who ticks each one and when is kept.
        </p>
        <ol className="flex flex-col gap-2">
          {items.map((item, index) => {
            const id = `start_of_care_checklist-${index}`;
            return (
              // Items are edited in place: while editing, an item is its position.
              <li key={id} className="flex items-center gap-2">
                <label htmlFor={id} className="sr-only">{`Checklist item ${index + 1}`}</label>
                <Input
                  id={id}
                  value={item}
                  maxLength={MAX_ITEM_CHARS}
                  onChange={(event) => onChange(items.map((old, at) => (at === index ? event.target.value : old)))}
                />
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${item.trim() || `item ${index + 1}`}`} onClick={() => onChange(items.filter((_, at) => at !== index))}>
                  <X aria-hidden="true" />
                </Button>
              </li>
            );
          })}
        </ol>
        <div>
          <Button type="button" variant="outline" size="sm" disabled={items.length >= MAX_ITEMS} onClick={() => onChange([...items, ''])}>
            <Plus aria-hidden="true" />
            Add item
          </Button>
        </div>
      </fieldset>
    </details>
  );
}
