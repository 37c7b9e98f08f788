import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { useConfirmTotp, useSecondFactor, useStartTotp, type TotpEnrolment } from '../api/account';

/** The recovery codes, shown once right after the app is confirmed (or the first
 * passkey is added). */
export function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">
        Your recovery codes. Each signs you in once if you lose your phone. Save them somewhere safe now: they are not shown again.
      </p>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded border bg-muted px-2 py-1">
            {code}
          </li>
        ))}
      </ol>
      <div>
        <Button onClick={onDone}>I Have Saved These Codes</Button>
      </div>
    </div>
  );
}

/** Scanning the QR code (or typing the key) into an app, then confirming with its code. */
function Enrolment({ enrolment, onConfirmed }: { enrolment: TotpEnrolment; onConfirmed: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = useConfirmTotp();
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        setProblem(null);
        confirm.mutate(code.trim(), {
          onSuccess: (answer) => onConfirmed(answer.codes),
          onError: (error) => setProblem(errorMessage(error, 'That code is not valid')),
        });
      }}
    >
      <p className="text-sm">Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password), or type the key into it.</p>
      {/* Of the page's own origin, as its Content-Security-Policy allows (a data: address is not). */}
      <img key={enrolment.secret} src="/api/account/totp/qr" alt="QR code for your authenticator app" width={200} height={200} className="rounded border bg-white" />
      <TextField id="totp-secret" label="Key" value={enrolment.secret} onChange={() => undefined} readOnly />
      <TextField id="totp-code" label="Code from the app" value={code} onChange={setCode} autoComplete="one-time-code" inputMode="numeric" error={problem ?? undefined} required />
      <div>
        <Button type="submit" disabled={confirm.isPending || code.trim() === ''}>
          {confirm.isPending ? 'Checking...' : 'Confirm'}
        </Button>
      </div>
    </form>
  );
}

/** The signed-in user's second factor: set up an authenticator app, see codes left. */
export function SecondFactorCard() {
  const invalidate = useInvalidate();
  const status = useSecondFactor();
  const start = useStartTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const data = status.data;
  const finish = () => {
    setCodes(null);
    setEnrolment(null);
    void invalidate([queryKeys.accountFactors, queryKeys.me]);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-4" aria-hidden="true" />
          Second Factor
        </CardTitle>
        <CardDescription>A code from an app on your phone, asked after your password when you sign in.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {data?.required && !data.totp && data.passkeys === 0 && !codes && (
          <p role="status" className="rounded-md border border-warning bg-warning-background p-3 text-warning">
            Your agency requires a second factor. Set up an authenticator app or add a passkey to continue.
          </p>
        )}
        {codes ? (
          <RecoveryCodeList
            codes={codes}
            onDone={() => {
              toast.success('Authenticator app set up');
              finish();
            }}
          />
        ) : data?.totp ? (
          <p>
            Authenticator app: <strong>On</strong>. Recovery codes left: <strong>{data.recovery_codes_left}</strong>. If you lose your phone, an administrator can reset it.
          </p>
        ) : enrolment ? (
          <Enrolment
            enrolment={enrolment}
            onConfirmed={(answer) => {
              setCodes(answer);
              void invalidate([queryKeys.me]);
            }}
          />
        ) : (
          <div>
            <Button onClick={() => start.mutate(undefined, { onSuccess: setEnrolment })} disabled={start.isPending || status.isPending}>
              Set Up Authenticator App
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
