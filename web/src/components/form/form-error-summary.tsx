import { AlertCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';

interface FormErrorSummaryProps {
  /** The failed save's error (a mutation's `error`); nothing is shown while it is null. */
  error: unknown;
  /** The spec's words when the server gave no message (a lost connection). */
  fallback: string;
  /** Leave a 409 to the form's own conflict banner. */
  hideConflict?: boolean;
  /** Whether the form marks the fields the server named; when it does not (Settings),
   * this summary is the only place the message shows, so it scrolls itself into view. */
  fieldsMarked?: boolean;
  className?: string;
}

/**
 * A failed save's message at the top of a form, where it stays after the toast has gone:
 * the server's message, then each field message it named. Scrolls itself into view when
 * no field is highlighted (a refused permission, a lost connection, a form that marks no
 * field), since then nothing else on the form shows what went wrong.
 */
export function FormErrorSummary({ error, fallback, hideConflict = false, fieldsMarked = true, className }: FormErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  const api = isApiError(error) ? error : null;
  const shown = error != null && !(hideConflict && api?.status === 409);
  const fieldMessages = api ? [...new Set(Object.values(api.fields))] : [];
  const message = api?.message || fallback;
  const scroll = shown && (fieldMessages.length === 0 || !fieldsMarked);

  useEffect(() => {
    const element = ref.current;
    // jsdom has no layout, hence no scrollIntoView.
    if (scroll && element && 'scrollIntoView' in element) element.scrollIntoView({ block: 'nearest' });
  }, [scroll, error]);

  if (!shown) return null;
  return (
    <div ref={ref} role="alert" className={cn('flex gap-2 rounded-lg border border-destructive bg-destructive/5 p-3 text-sm text-destructive', className)}>
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="flex flex-col gap-1">
        <p className="font-medium">{message}</p>
        {fieldMessages.length > 0 && fieldMessages.some((text) => text !== message) ? (
          <ul className="list-disc pl-4">
            {fieldMessages
              .filter((text) => text !== message)
              .map((text) => (
                <li key={text}>{text}</li>
              ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
