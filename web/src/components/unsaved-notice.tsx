/**
 * Why an action that acts on the stored record (print, send, generate) is off: the form on
 * screen has unsaved changes, and the action would use the saved version instead.
 */
import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';

export function UnsavedNotice({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="status" className="flex items-start gap-2 rounded-md border border-warning bg-warning/10 px-3 py-2 text-sm">
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}
