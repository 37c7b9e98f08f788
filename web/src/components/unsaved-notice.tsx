/**
 * Why an action that acts on the stored record (print, send, generate) is off: the form on
 * screen has unsaved changes, and the action would use the saved version instead.
 */
import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** Meant for a form's sticky action bar, so it is in view wherever the user is on the form. */
export function UnsavedNotice({ id, children, className }: { id: string; children: ReactNode; className?: string }) {
  return (
    <p id={id} role="status" className={cn('mr-auto flex max-w-prose items-start gap-2 rounded-md border border-warning bg-warning/10 px-3 py-2 text-sm', className)}>
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}
