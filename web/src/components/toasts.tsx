import { Toaster } from 'sonner';

/** Toasts dismiss after 5000 ms, one shown at a time. */
export const TOAST_DURATION_MS = 5000;

/** Where the app's and the family's pages show their toasts. */
export function Toasts() {
  return <Toaster position="top-right" duration={TOAST_DURATION_MS} visibleToasts={1} closeButton />;
}
