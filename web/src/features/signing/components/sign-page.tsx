import { useState, type SyntheticEvent } from 'react';
import { Loading } from '@/components/loading';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { contractPath, useContractForSigning, useSignContract } from '../api/public';
import type { Strokes } from '../api/types';
import { Money, PublicLayout, UnusableLink } from './public-layout';
import { SignaturePad } from './signature-pad';

type Method = 'typed' | 'drawn';

/** `/sign/:token`: the family reads the agreement and signs it by typing or drawing. */
export default function SignPage({ token }: { token: string }) {
  const contract = useContractForSigning(token);
  const sign = useSignContract(token);
  const [signer, setSigner] = useState('');
  const [relationship, setRelationship] = useState('');
  const [consent, setConsent] = useState(false);
  const [method, setMethod] = useState<Method>('drawn');
  const [typed, setTyped] = useState('');
  const [strokes, setStrokes] = useState<Strokes>([]);
  const [problem, setProblem] = useState<string | null>(null);

  if (contract.isPending) return <Loading />;
  if (contract.isError) return <UnusableLink kind="sign" token={token} error={contract.error} />;
  const data = contract.data;

  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    setProblem(null);
    // The checks that run as the family types; the server checks everything again.
    if (!signer.trim()) return setProblem('Please type your full name.');
    if (!relationship.trim()) return setProblem('Please say how you are related to the client.');
    if (!consent) return setProblem('Please agree to sign electronically, or ask for a paper copy.');
    if (method === 'typed' && !typed.trim()) return setProblem('Please type your signature.');
    if (method === 'drawn' && strokes.reduce((n, stroke) => n + stroke.length, 0) < 2) return setProblem('Please draw your signature in the box.');
    sign.mutate(
      {
        signer_name: signer,
        relationship,
        consent,
        method,
        typed_signature: method === 'typed' ? typed : '',
        drawn_signature: method === 'drawn' ? strokes : [],
        document_sha256: data.document_sha256,
      },
      { onError: (cause) => setProblem(errorMessage(cause, 'The signature could not be recorded. Please try again.')) },
    );
  };

  if (sign.data) {
    return (
      <PublicLayout agency={data} title="Thank you">
        <p role="status" className="rounded-md border border-primary bg-background p-4 font-medium">
          {sign.data.message}
        </p>
      </PublicLayout>
    );
  }

  return (
    <PublicLayout agency={data} title="Home Care Service Agreement">
      <p>
        Please read the agreement for <strong>{data.client_name}</strong>, then sign below.{' '}
        <a className="text-primary underline" href={`${contractPath(token)}/pdf`} target="_blank" rel="noreferrer">
          Open the agreement as a PDF
        </a>
      </p>
      <Card>
        <CardHeader>
          <CardTitle>Rate and cost</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-1 text-sm">
            <dt>Hourly rate</dt>
            <dd>
              <Money value={data.hourly_rate} />
            </dd>
            <dt>Weekly cost</dt>
            <dd>
              <Money value={data.weekly_cost} />
            </dd>
            <dt>Monthly cost</dt>
            <dd>
              <Money value={data.monthly_cost} />
            </dd>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>The agreement</CardTitle>
        </CardHeader>
        <CardContent>
          <div className="max-h-[60vh] overflow-y-auto text-sm whitespace-pre-wrap" tabIndex={0} aria-label="Agreement text" data-testid="contract-text">
            {data.contract_content}
          </div>
          <p className="mt-2 text-xs break-all text-muted-foreground">Document fingerprint (SHA-256): {data.document_sha256}</p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sign</CardTitle>
        </CardHeader>
        <CardContent>
          <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
            <div className="grid gap-3 sm:grid-cols-2">
              <div className="flex flex-col gap-1">
                <Label htmlFor="signer-name">Your full name</Label>
                <Input id="signer-name" autoComplete="name" value={signer} onChange={(event) => setSigner(event.target.value)} />
              </div>
              <div className="flex flex-col gap-1">
                <Label htmlFor="relationship">Relationship to the client</Label>
                <Input id="relationship" placeholder="Self, daughter, son, spouse…" value={relationship} onChange={(event) => setRelationship(event.target.value)} />
              </div>
            </div>
            <div className="flex items-start gap-2 rounded-md border p-3">
              <input id="consent" type="checkbox" className="mt-1 size-4" checked={consent} onChange={(event) => setConsent(event.target.checked)} />
              <label htmlFor="consent" className="text-sm">
                {data.consent_text}
              </label>
            </div>
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium">How would you like to sign?</legend>
              <div className="flex gap-4 text-sm">
                <label className="flex items-center gap-2">
                  <input type="radio" name="method" value="drawn" checked={method === 'drawn'} onChange={() => setMethod('drawn')} /> Draw my signature
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" name="method" value="typed" checked={method === 'typed'} onChange={() => setMethod('typed')} /> Type my signature
                </label>
              </div>
            </fieldset>
            {method === 'drawn' ? (
              <div className="flex flex-col gap-1">
                <p id="pad-label" className="text-sm font-medium">
                  Sign in the box
                </p>
                <SignaturePad strokes={strokes} onChange={setStrokes} labelledBy="pad-label" />
              </div>
            ) : (
              <div className="flex flex-col gap-1">
                <Label htmlFor="typed-signature">Type your signature</Label>
                <Input id="typed-signature" className="font-serif text-lg italic" value={typed} onChange={(event) => setTyped(event.target.value)} />
              </div>
            )}
            {problem ? (
              <p role="alert" className="text-sm text-destructive">
                {problem}
              </p>
            ) : null}
            <Button type="submit" size="lg" disabled={sign.isPending}>
              Sign the agreement
            </Button>
          </form>
        </CardContent>
      </Card>
      {data.agency_phone ? (
        <p className="text-sm">
          Prefer paper, or have a question? Call {data.agency_name} at <a href={`tel:${data.agency_phone}`}>{data.agency_phone}</a>.
        </p>
      ) : null}
    </PublicLayout>
  );
}
