import type { ReactNode } from 'react';
import { Loading } from '@/components/loading';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { signedPdfPath, useLinkOutcome } from '../api/public';

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

/** A link that cannot be used for its page: a link the family already used shows what it
 * did and when (and the signed agreement); any other shows the one answer for bad links. */
export function UnusableLink({ kind, token, error }: { kind: 'approve' | 'sign'; token: string; error: unknown }) {
  const used = isApiError(error) && error.code === 'link_unavailable';
  const outcome = useLinkOutcome(kind, token, used);
  if (used && outcome.isPending) return <Loading />;
  if (!outcome.data) return <LinkProblem error={error} />;
  const { agency_name: agency, agency_phone: phone, message, signed_pdf_available: pdf } = outcome.data;
  return (
    <PublicLayout agency={agency} title={kind === 'approve' ? 'Proposal approved' : 'Agreement signed'}>
      <p role="status" className="rounded-md border bg-background p-4">
        {message}
      </p>
      {pdf && (
        <Button asChild className="self-start">
          <a href={signedPdfPath(token)}>Download the signed agreement (PDF)</a>
        </Button>
      )}
      {phone && <p className="text-sm text-muted-foreground">Questions? Call us at {phone}.</p>}
    </PublicLayout>
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
