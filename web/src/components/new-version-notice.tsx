/**
 * "A new version is available": shown once a new build's service worker waits, on every
 * screen, until the user reloads into it.
 */
import { Button } from '@/components/ui/button';
import { useNewVersion } from '@/lib/app-update';

export function NewVersionNotice() {
  const reload = useNewVersion();
  if (!reload) return null;
  return (
    <div role="status" className="fixed inset-x-0 bottom-4 z-50 mx-auto flex w-fit max-w-[calc(100%-2rem)] items-center gap-3 rounded-lg border bg-background px-4 py-3 text-sm shadow-lg">
      <span>A new version is available</span>
      <Button size="sm" onClick={reload}>
        Reload
      </Button>
    </div>
  );
}
