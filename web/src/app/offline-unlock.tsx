/**
 * What a tab opened without a network shows when it holds no key to the offline copy:
 * the password prompt that opens this device's visits (lib/offline/session-key.ts), or
 * why it cannot, until the network is back.
 */
import { HeartHandshake } from 'lucide-react';
import { useEffect, useState } from 'react';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import type { DeviceCopy } from '@/lib/offline/session-key';

const SYNC_LATER = 'Assessments saved on this device are kept, encrypted, and are sent as soon as the network is back.';

/**
 * `onBack` runs when the network returns; `onOpened` once the password has opened the
 * copy (the app then reads the signed-in user from it, as a reloaded tab does).
 */
export function OfflineUnlock({ onBack, onOpened }: { onBack: () => void; onOpened: () => void }) {
  // undefined while the device is read; null when it keeps no copy.
  const [copy, setCopy] = useState<DeviceCopy | null | undefined>(undefined);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  // TanStack Query's own refetch on reconnect misses this: it assumes a page starts
  // online, so the first `online` event changes nothing for it.
  useEffect(() => {
    window.addEventListener('online', onBack);
    return () => window.removeEventListener('online', onBack);
  }, [onBack]);

  useEffect(() => {
    let live = true;
    // The retention window runs out offline too: what it erases is not offered.
    void Promise.all([import('@/lib/offline/copy'), import('@/lib/offline/session-key')])
      .then(async ([copy, keys]) => {
        await copy.purgeExpired().catch(() => undefined);
        return keys.deviceCopy();
      })
      .catch(() => null)
      .then((found) => {
        if (live) setCopy(found);
      });
    return () => {
      live = false;
    };
  }, []);

  const open = async () => {
    if (!copy) return;
    if (!password) return setError('Enter your password.');
    setBusy(true);
    setError(undefined);
    try {
      const { unlockWithPassword } = await import('@/lib/offline/session-key');
      await unlockWithPassword(copy.userId, password);
      setPassword('');
      onOpened();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-start justify-center bg-muted p-4 sm:items-center">
      <div className="flex w-full max-w-sm flex-col gap-4 rounded-lg border bg-card p-6 text-sm text-card-foreground shadow-sm">
        <div className="flex flex-col items-center gap-1 text-center">
          <HeartHandshake className="size-8 text-primary" aria-hidden="true" />
          <h1 className="text-xl font-semibold">No network</h1>
          {copy && <p className="text-muted-foreground">Signed in as {copy.userName || 'the last user of this device'}</p>}
        </div>
        {copy === undefined ? null : copy === null ? (
          <p role="status">Carepath opens here as soon as the network is back. {SYNC_LATER}</p>
        ) : copy.byPassword ? (
          <form
            noValidate
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              void open();
            }}>
            <TextField
              id="offline-password"
              label="Password"
              type="password"
              value={password}
              onChange={setPassword}
              autoComplete="current-password"
              hint="Enter your password to open this device's visits."
              error={error}
              required
            />
            <Button type="submit" disabled={busy}>
              {busy ? 'Opening...' : 'Open Visits'}
            </Button>
            <p className="text-muted-foreground">{SYNC_LATER}</p>
          </form>
        ) : (
          <div role="status" className="flex flex-col gap-2">
            <p>This device's visits cannot be opened without a network: the last sign-in here did not use a password.</p>
            <p className="font-medium">Sign in with your password before you leave to open visits without a network.</p>
            <p className="text-muted-foreground">{SYNC_LATER}</p>
          </div>
        )}
      </div>
    </main>
  );
}
