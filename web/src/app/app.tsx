import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { NewVersionNotice } from '@/components/new-version-notice';
import { Toasts } from '@/components/toasts';
import { createAppRouter } from './router';

/** The app, with the query client its first screen's data was asked through. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <NewVersionNotice />
      <Toasts />
    </QueryClientProvider>
  );
}
