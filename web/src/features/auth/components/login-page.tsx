import { useQueryClient } from '@tanstack/react-query';
import { HeartHandshake } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage, takeSignedOutNotice } from '@/lib/api-client';
import { passkeyProblem, passkeysSupported } from '@/lib/passkeys';
import { getMe, meQueryKey, recoverPassword, resetPassword, sendMagicLink, signIn, signInWithPasskey, signUp, submitSecondFactor, verifyMagicLink } from '../api/auth';
import { emailProblem, newPasswordProblem, readLinkFragment, safeNext } from '../login-validation';
import { LoginFields } from './login-fields';

export type LoginMode = 'sign-in' | 'sign-up' | 'forgot' | 'reset' | 'code';

const TITLES: Record<LoginMode, { title: string; description: string }> = {
  'sign-in': { title: 'Sign In', description: 'Sign in to your Carepath account' },
  'sign-up': { title: 'Create Account', description: 'Sign up with the email address you were invited with' },
  forgot: { title: 'Reset Password', description: 'We will email you a link to set a new password' },
  reset: { title: 'Set New Password', description: 'Choose a new password for your account' },
  code: { title: 'Two-Step Verification', description: 'Enter the 6-digit code from your authenticator app or one of your recovery codes, or use a passkey' },
};

/**
 * A password the server just accepted also wraps the offline copy's key (once the copy is
 * taken), so the visits open on this device without a network. Loaded only then.
 */
function keepForOffline(email: string, password: string): void {
  void import('@/lib/offline/session-key').then(({ rememberPassword }) => rememberPassword(email, password)).catch(() => undefined);
}

export default function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const next = safeNext(searchParams.get('next'));
  // Reading the emailed link is pure; the token leaves the address bar only once this
  // render is committed, since React may discard a render and run it again.
  const [link] = useState(() => readLinkFragment(window.location.hash));
  useEffect(() => {
    if (link) window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }, [link]);
  const [mode, setMode] = useState<LoginMode>(link?.kind === 'recovery' ? 'reset' : link?.kind === 'invite' ? 'sign-up' : 'sign-in');
  const [values, setValues] = useState({ email: link?.kind === 'invite' ? link.email : '', password: '', confirmPassword: '', fullName: '' });
  // Sign-up needs the invitation link's token: the invited address alone is not enough.
  const invitationToken = link?.kind === 'invite' ? link.token : '';
  const [error, setError] = useState<string | null>(link?.kind === 'error' ? link.message : null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(link?.kind === 'magiclink');
  const recoveryToken = link?.kind === 'recovery' ? link.token : '';
  const verifying = useRef(false);
  const [signedOut] = useState(takeSignedOutNotice);
  const [code, setCode] = useState('');

  const finishSignIn = async () => {
    queryClient.clear();
    queryClient.setQueryData(meQueryKey, await getMe());
    void navigate(next, { replace: true });
  };

  useEffect(() => {
    if (link?.kind !== 'magiclink' || verifying.current) return;
    verifying.current = true;
    verifyMagicLink(link.token)
      .then((user) => (user ? finishSignIn() : setMode('code')))
      .catch((cause: unknown) => setError(errorMessage(cause, 'This sign-in link is invalid or has expired.')))
      .finally(() => setBusy(false));
    // Runs once for the link the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link]);

  const switchMode = (to: LoginMode) => {
    setMode(to);
    setError(null);
    setNotice(null);
  };

  const run = async (action: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (cause) {
      const message = errorMessage(cause, fallback);
      setError(message);
      toast.error('Error', { description: message });
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = () => {
    const email = values.email.trim();
    if (mode === 'sign-in') {
      void run(async () => {
        const user = await signIn({ email, password: values.password });
        keepForOffline(email, values.password);
        // No user in the answer: the password was right and a code is asked next.
        if (!user) {
          setCode('');
          return setMode('code');
        }
        await finishSignIn();
      }, 'Invalid email or password');
    } else if (mode === 'code') {
      void run(async () => {
        await submitSecondFactor({ code: code.trim() });
        await finishSignIn();
      }, 'That code is not valid');
    } else if (mode === 'sign-up') {
      const problem = emailProblem(email) ?? newPasswordProblem(values.password, values.confirmPassword);
      if (problem) return setError(problem);
      void run(async () => {
        await signUp({ email, password: values.password, full_name: values.fullName.trim(), token: invitationToken });
        keepForOffline(email, values.password);
        await finishSignIn();
      }, 'Sign up failed');
    } else if (mode === 'forgot') {
      const problem = emailProblem(email);
      if (problem) return setError(problem);
      void run(async () => {
        await recoverPassword({ email });
        setNotice('If an account exists for that email, a password reset link is on its way.');
      }, 'Could not send the reset link');
    } else {
      const problem = newPasswordProblem(values.password, values.confirmPassword);
      if (problem) return setError(problem);
      void run(async () => {
        const answer = await resetPassword({ token: recoveryToken, password: values.password, confirm_password: values.confirmPassword });
        toast.success('Password updated');
        if (!answer) return switchMode('code');
        const signedIn = await getMe();
        queryClient.setQueryData(meQueryKey, signedIn);
        if (signedIn) {
          keepForOffline(signedIn.email, values.password);
          void navigate(next, { replace: true });
        } else {
          switchMode('sign-in');
          setNotice('Your password was updated. Sign in with your new password.');
        }
      }, 'Could not update the password');
    }
  };

  const onPasskey = () => {
    setBusy(true);
    setError(null);
    setNotice(null);
    signInWithPasskey()
      .then(finishSignIn)
      .catch((cause: unknown) => {
        const message = passkeyProblem(cause, 'That passkey was not accepted. Try again, or enter a code.');
        setError(message);
        toast.error('Error', { description: message });
      })
      .finally(() => setBusy(false));
  };

  const onMagicLink = () => {
    const problem = emailProblem(values.email);
    if (problem) return setError(problem);
    void run(async () => {
      await sendMagicLink({ email: values.email.trim() });
      setNotice('Check your email for a sign-in link.');
    }, 'Could not send the sign-in link');
  };

  const { title, description } = TITLES[mode];
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="items-center text-center">
          <HeartHandshake className="size-8 text-primary" aria-hidden="true" />
          <p className="text-sm font-semibold text-primary">Carepath</p>
          <CardTitle>
            <span className="text-xl">{title}</span>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {signedOut && mode === 'sign-in' && !notice && (
            <p role="status" className="rounded-md border border-warning bg-warning-background p-3 text-sm text-warning">
              You have been signed out. Please sign in again to continue.
            </p>
          )}
          {notice && (
            <p role="status" className="rounded-md border bg-accent p-3 text-sm text-accent-foreground">
              {notice}
            </p>
          )}
          {error && (
            <p role="alert" className="rounded-md border border-destructive p-3 text-sm text-destructive">
              {error}
            </p>
          )}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              onSubmit();
            }}
            noValidate className="flex flex-col gap-4">
            {mode === 'code' ? (
              <TextField id="second-factor-code" label="Authentication Code" value={code} onChange={setCode} autoComplete="one-time-code" required />
            ) : (
              <LoginFields mode={mode} values={values} onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))} />
            )}
            <Button type="submit" disabled={busy}>
              {mode === 'sign-in' ? 'Sign In' : mode === 'sign-up' ? 'Create Account' : mode === 'forgot' ? 'Send Reset Link' : mode === 'code' ? 'Verify' : 'Update Password'}
            </Button>
          </form>
          {mode === 'code' && passkeysSupported() && (
            <Button variant="outline" onClick={onPasskey} disabled={busy}>
              Use a Passkey
            </Button>
          )}
          {mode === 'sign-in' && (
            <Button variant="outline" onClick={onMagicLink} disabled={busy}>
              Sign in with Magic Link
            </Button>
          )}
          <div className="flex flex-col items-center gap-1 text-sm">
            {mode === 'sign-in' ? (
              <>
                <Button variant="link" size="sm" onClick={() => switchMode('forgot')}>
                  Forgot your password?
                </Button>
                <Button variant="link" size="sm" onClick={() => switchMode('sign-up')}>
                  Don't have an account? Sign up
                </Button>
              </>
            ) : (
              <Button variant="link" size="sm" onClick={() => switchMode('sign-in')}>
                Back to sign in
              </Button>
            )}
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
