import type { ReactNode } from 'react';
import { Loading } from '@/components/loading';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { formatMoney } from '@/lib/money';
import { signedPdfPath, useLinkOutcome } from '../api/public';

/** Who the family is dealing with, as the agency's documents print it. */
export interface AgencyHeading {
  agency_name: string;
  agency_phone: string;
  agency_address?: string;
  agency_logo_url?: string | null;
}

/** The family's pages: no staff navigation, readable on a phone; the agency's logo, name,
 * address and phone at the top, as on its letters. */
export function PublicLayout({ agency, title, children }: { agency?: AgencyHeading; title: string; children: ReactNode }) {
  const contact = agency ? [agency.agency_address?.split('\n').map((line) => line.trim()).filter(Boolean).join(', '), agency.agency_phone && `Phone ${agency.agency_phone}`].filter(Boolean).join(' · ') : '';
  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-3">
          {agency?.agency_logo_url ? <img src={agency.agency_logo_url} alt={`${agency.agency_name} logo`} className="h-12 max-w-40 object-contain" /> : null}
          <div>
            <div className="text-sm font-semibold">{agency?.agency_name || 'Home Care'}</div>
            {contact ? <div className="text-xs text-muted-foreground">{contact}</div> : null}
          </div>
        </div>
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
  const { agency_phone: phone, message, signed_pdf_available: pdf } = outcome.data;
  return (
    <PublicLayout agency={outcome.data} title={kind === 'approve' ? 'Proposal approved' : 'Agreement signed'}>
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
  return <>{formatMoney(value)}</>;
}
