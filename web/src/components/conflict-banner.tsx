/**
 * What a save refused as stale (409) shows: the server's message, that nothing typed was
 * lost, and a way to read the latest version beside the form. It scrolls itself into view,
 * since the save button that caused it sits at the bottom of a long form.
 */
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';

export function ConflictBanner({ message, latestHref }: { message: string; latestHref: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [message]);
  return (
    <div ref={ref} role="alert" tabIndex={-1} className="flex flex-wrap items-center gap-3 rounded-lg border border-destructive bg-destructive/10 p-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring">
      <p className="flex-1">{message} Your changes are still in the form.</p>
      {latestHref && (
        <Button variant="outline" size="sm" onClick={() => window.open(latestHref, '_blank', 'noopener')}>
          Open latest version
        </Button>
      )}
    </div>
  );
}
