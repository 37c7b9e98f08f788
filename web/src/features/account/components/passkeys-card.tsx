import { Fingerprint } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format';
import { passkeyProblem, passkeysSupported } from '@/lib/passkeys';
import { useAddPasskey, usePasskeys, useRemovePasskey, type PasskeySummary } from '../api/account';
import { RecoveryCodeList } from './second-factor-card';

/** The longest passkey name the server keeps (its check is the rule; this one is as-you-type). */
const NAME_MAX = 60;

function PasskeyRow({ passkey }: { passkey: PasskeySummary }) {
  const remove = useRemovePasskey();
  return (
    <li className="flex items-center justify-between gap-3 rounded-md border p-3">
      <div className="flex flex-col">
        <span className="font-medium">{passkey.name}</span>
        <span className="text-muted-foreground">
          Added {formatDateTime(passkey.created_at)}
          {passkey.last_used_at ? ` · Last used ${formatDateTime(passkey.last_used_at)}` : ' · Not used yet'}
        </span>
      </div>
      <Button
        size="sm"
        variant="outline"
        disabled={remove.isPending}
        aria-label={`Remove the passkey ${passkey.name}`}
        onClick={() => remove.mutate(passkey.id, { onSuccess: () => toast.success(`Passkey ${passkey.name} removed`) })}
      >
        Remove
      </Button>
    </li>
  );
}

/** The signed-in user's passkeys: a fingerprint, face, screen lock or security key used
 * after the password instead of a code. Named, listed, removed. */
export function PasskeysCard() {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const supported = passkeysSupported();
  const items = passkeys.data?.items ?? [];
  // Characters, as the server counts them (not UTF-16 units).
  const tooLong = Array.from(name.trim()).length > NAME_MAX;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Fingerprint className="size-4" aria-hidden="true" />
          Passkeys
        </CardTitle>
        <CardDescription>Your fingerprint, face, screen lock or a security key, used after your password instead of a code.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {codes && (
          <RecoveryCodeList
            codes={codes}
            onDone={() => {
              setCodes(null);
              toast.success('Recovery codes saved');
            }}
          />
        )}
        {items.length > 0 ? (
          <ul aria-label="Your passkeys" className="flex flex-col gap-2">
            {items.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} />
            ))}
          </ul>
        ) : (
          !passkeys.isPending && <p className="text-muted-foreground">No passkeys yet.</p>
        )}
        {supported ? (
          <form
            className="flex flex-col gap-3"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setProblem(null);
              add.mutate(name.trim(), {
                onSuccess: (added) => {
                  toast.success(`Passkey ${added.passkey.name} added`);
                  setName('');
                  if (added.recovery_codes.length > 0) setCodes(added.recovery_codes);
                },
                onError: (error) => setProblem(passkeyProblem(error, 'The passkey could not be added. Please try again.')),
              });
            }}
          >
            <TextField
              id="passkey-name"
              label="Passkey Name"
              placeholder="Work laptop"
              value={name}
              onChange={setName}
              error={tooLong ? `A passkey's name can be at most ${NAME_MAX} characters.` : (problem ?? undefined)}
            />
            <div>
              <Button type="submit" disabled={add.isPending || name.trim() === '' || tooLong}>
                {add.isPending ? 'Waiting for Your Passkey...' : 'Add a Passkey'}
              </Button>
            </div>
          </form>
        ) : (
          <p className="text-muted-foreground">This browser cannot use passkeys.</p>
        )}
      </CardContent>
    </Card>
  );
}
