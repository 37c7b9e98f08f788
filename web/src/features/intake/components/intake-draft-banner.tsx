import { History } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';

/** Offers back a new intake that was being typed when the tab closed or reloaded. */
export function IntakeDraftBanner({ savedAt, onRestore, onDiscard }: { savedAt: string; onRestore: () => void; onDiscard: () => void }) {
  return (
    <div role="region" aria-label="Unsaved intake" className="flex flex-wrap items-center gap-3 rounded-lg border border-warning bg-warning/10 p-3 text-sm">
      <History className="size-4" aria-hidden="true" />
      <p className="flex-1">
        <span className="font-semibold">An intake you were typing was not saved.</span> Last change {formatDateTime(savedAt)}. Restore it to go on where you left off.
      </p>
      <Button size="sm" onClick={onRestore}>
        Restore
      </Button>
      <Button variant="outline" size="sm" onClick={onDiscard}>
        Discard
      </Button>
    </div>
  );
}
