import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { NewVersionNotice } from '@/components/new-version-notice';
import { createQueryClient } from '@/lib/query-client';
import { createAppRouter } from './router';
import { preloadFirstScreen } from './screens';

/** Toasts dismiss after 5000 ms, one shown at a time. */
export const TOAST_DURATION_MS = 5000;

export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    preloadFirstScreen(window.location, client);
    return client;
  });
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <NewVersionNotice />
      <Toaster position="top-right" duration={TOAST_DURATION_MS} visibleToasts={1} closeButton />
    </QueryClientProvider>
  );
}
