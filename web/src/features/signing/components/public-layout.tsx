import type { ReactNode } from 'react';
import { isApiError } from '@/lib/api-client';

/** The family's pages: no staff navigation, readable on a phone. */
export function PublicLayout({ agency, title, children }: { agency?: string; title: string; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b bg-background">
        <div className="mx-auto max-w-3xl px-4 py-3 text-sm font-semibold">{agency ?? 'Home Care'}</div>
      </header>
      <main className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
        <h1 className="text-xl font-bold sm:text-2xl">{title}</h1>
        {children}
      </main>
    </div>
  );
}

/** What a link that cannot be used shows: the server's one answer for every bad link. */
export function LinkProblem({ error }: { error: unknown }) {
  const message = isApiError(error) ? error.message : 'This page could not be loaded. Please try again.';
  return (
    <PublicLayout title={isApiError(error) && error.code === 'link_unavailable' ? 'Link expired or used' : 'Something went wrong'}>
      <p role="alert" className="rounded-md border bg-background p-4">
        {message}
      </p>
    </PublicLayout>
  );
}

export function Money({ value }: { value: number }) {
  return <>{value.toLocaleString('en-US', { style: 'currency', currency: 'USD' })}</>;
}
