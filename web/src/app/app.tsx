import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { NewVersionNotice } from '@/components/new-version-notice';
import { createAppRouter } from './router';

/** Toasts dismiss after 5000 ms, one shown at a time. */
export const TOAST_DURATION_MS = 5000;

/** The app, with the query client its first screen's data was asked through. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <NewVersionNotice />
      <Toaster position="top-right" duration={TOAST_DURATION_MS} visibleToasts={1} closeButton />
    </QueryClientProvider>
  );
}
