import { useState, type ChangeEvent, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { usePaperSignature, useResendLink, useSigningStatus, useVerifyPdf } from '../api/signing';
import { LINK_STATE_LABELS, type SigningLinkInfo } from '../api/types';

/** The contract screen's signing panel: where the family's link stands (sent, opened,
 * signed, expired, with times), Resend, Mark as Signed for a paper signature, the signed
 * PDF, and a box that says whether a PDF is the one that was signed. */
export function SigningLinkStatus({ contractId }: { contractId: string }) {
  const status = useSigningStatus(contractId);
  const resend = useResendLink(contractId);
  const [paperOpen, setPaperOpen] = useState(false);

  if (status.isPending) return <p className="text-sm text-muted-foreground">Loading the signing status…</p>;
  if (status.isError) return <p role="alert">{errorMessage(status.error, 'Failed to load the signing status')}</p>;
  const { links, signature, signed_pdf_available: pdfAvailable } = status.data;
  const latest = links[0];
  const waiting = !signature && latest !== undefined;

  return (
    <Card aria-labelledby="signing-status-title" data-testid="signing-status">
      <CardHeader>
        <CardTitle id="signing-status-title">Signature</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {signature ? (
          <div data-testid="signature-evidence">
            <p className="font-medium">
              Signed by {signature.signer_name}
              {signature.relationship ? ` (${signature.relationship})` : ''} on {formatDateTime(signature.signed_at)}
              {signature.method === 'paper' ? ' — on paper' : ' — online'}
            </p>
            {signature.method !== 'paper' ? (
              <p className="text-xs break-all text-muted-foreground">
                From {signature.ip_address || 'an unknown address'} · document SHA-256 {signature.document_sha256}
                {signature.link_sent_to ? ` · link sent to ${signature.link_sent_to}` : ''}
              </p>
            ) : null}
          </div>
        ) : latest ? null : (
          <p className="text-muted-foreground">No signing link has been sent yet. Send for Signature emails one to the family.</p>
        )}
        {links.length > 0 ? <LinkTable links={links} /> : null}
        <div className="flex flex-wrap gap-2">
          {pdfAvailable ? (
            <Button asChild variant="outline" size="sm">
              <a href={`/api/contracts/${contractId}/signed-pdf`}>Download signed PDF</a>
            </Button>
          ) : null}
          {waiting ? (
            <Button
              variant="outline"
              size="sm"
              disabled={resend.isPending}
              onClick={() => resend.mutate(undefined, { onSuccess: () => toast.success('A new signing link was emailed; the old one no longer works.') })}
            >
              Resend link
            </Button>
          ) : null}
          {!signature ? (
            <Button variant="outline" size="sm" onClick={() => setPaperOpen((open) => !open)} aria-expanded={paperOpen}>
              Mark as Signed (paper)
            </Button>
          ) : null}
        </div>
        {paperOpen && !signature ? <PaperSignatureForm contractId={contractId} onDone={() => setPaperOpen(false)} /> : null}
        <VerifyBox />
      </CardContent>
    </Card>
  );
}

function LinkTable({ links }: { links: SigningLinkInfo[] }) {
  return (
    <table className="w-full text-left text-xs">
      <caption className="sr-only">Signing links sent</caption>
      <thead>
        <tr>
          <th scope="col">Link</th>
          <th scope="col">Sent</th>
          <th scope="col">Opened</th>
          <th scope="col">Signed</th>
          <th scope="col">Expires</th>
        </tr>
      </thead>
      <tbody>
        {links.map((link) => (
          <tr key={link.id} data-testid="signing-link-row">
            <td className="font-medium">{LINK_STATE_LABELS[link.state]}</td>
            <td>{formatDateTime(link.sent_at)}</td>
            <td>{link.opened_at ? formatDateTime(link.opened_at) : '—'}</td>
            <td>{link.used_at ? formatDateTime(link.used_at) : '—'}</td>
            <td>{formatDateTime(link.expires_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PaperSignatureForm({ contractId, onDone }: { contractId: string; onDone: () => void }) {
  const paper = usePaperSignature(contractId);
  const [values, setValues] = useState({ signed_on: '', signer_name: '', relationship: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const change = (field: keyof typeof values) => (event: ChangeEvent<HTMLInputElement>) => setValues({ ...values, [field]: event.target.value });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!values.signed_on || !values.signer_name.trim()) {
      setProblem('Please enter the date it was signed and who signed it.');
      return;
    }
    paper.mutate(values, {
      onSuccess: () => {
        toast.success('Contract marked as signed.');
        onDone();
      },
      onError: (cause) => setProblem(errorMessage(cause, 'Failed to mark the contract as signed')),
    });
  };
  return (
    <form className="grid gap-2 rounded-md border p-3 sm:grid-cols-3" onSubmit={submit} noValidate>
      <div className="flex flex-col gap-1">
        <Label htmlFor="paper-signed-on">Date signed</Label>
        <Input id="paper-signed-on" type="date" value={values.signed_on} onChange={change('signed_on')} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="paper-signer">Signed by</Label>
        <Input id="paper-signer" value={values.signer_name} onChange={change('signer_name')} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="paper-relationship">Relationship</Label>
        <Input id="paper-relationship" value={values.relationship} onChange={change('relationship')} />
      </div>
      {problem ? (
        <p role="alert" className="text-destructive sm:col-span-3">
          {problem}
        </p>
      ) : null}
      <div className="sm:col-span-3">
        <Button type="submit" size="sm" disabled={paper.isPending}>
          Save paper signature
        </Button>
      </div>
    </form>
  );
}

function VerifyBox() {
  const verify = useVerifyPdf();
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) verify.mutate(file);
  };
  return (
    <div className="flex flex-col gap-1 border-t pt-3">
      <Label htmlFor="verify-pdf">Verify a signed PDF</Label>
      <input id="verify-pdf" type="file" accept="application/pdf,.pdf" className="text-sm" onChange={onFile} />
      {verify.data ? (
        <p role="status" className={verify.data.matches ? 'text-primary' : 'text-destructive'} data-testid="verify-result">
          {verify.data.matches ? 'Match: ' : 'No match: '}
          {verify.data.message}
        </p>
      ) : null}
      {verify.isError ? <p role="alert">{errorMessage(verify.error, 'The file could not be checked.')}</p> : null}
    </div>
  );
}
