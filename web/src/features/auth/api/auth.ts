import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest, isApiError } from '@/lib/api-client';
import type { PasskeyRequestChallenge } from '@/lib/passkeys';
import { OFFLINE_COPY_NETWORK_MODE } from '@/lib/query-client';
import type { CurrentUser, EmailBody, ResetPasswordBody, SecondFactorBody, SignInBody, SignUpBody } from './types';

export const meQueryKey = queryKeys.me;

/** The signed-in user, or null when no session is open. */
export async function getMe(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await apiRequest<CurrentUser>('/api/auth/me', { signal, allowUnauthenticated: true });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

export const meQueryOptions = queryOptions({
  queryKey: meQueryKey,
  queryFn: ({ signal }) => getMe(signal),
  staleTime: 60_000,
  meta: { silent: true },
  ...OFFLINE_COPY_NETWORK_MODE,
});

export function useMe() {
  return useQuery(meQueryOptions);
}

/** A sign-in answers the user, or nothing (202) when a second factor is asked next. */
const auth = (path: string, body: unknown) => apiRequest<CurrentUser | undefined>(path, { method: 'POST', body, allowUnauthenticated: true });

export const signIn = (body: SignInBody) => auth('/api/auth/sign-in', body);
export const signUp = (body: SignUpBody) => auth('/api/auth/sign-up', body);
export const sendMagicLink = (body: EmailBody) => auth('/api/auth/magic-link', body);
export const recoverPassword = (body: EmailBody) => auth('/api/auth/recover', body);
export const verifyMagicLink = (token: string) => auth('/api/auth/verify', { token });
export const resetPassword = (body: ResetPasswordBody) => auth('/api/auth/reset-password', body);
export const submitSecondFactor = (body: SecondFactorBody) => auth('/api/auth/second-factor', body);

/** The code step with a passkey: the server's challenge for the pending sign-in, the
 * browser's ceremony, then the signed answer, which opens the session. */
export async function signInWithPasskey(): Promise<CurrentUser | undefined> {
  const challenge = await apiRequest<PasskeyRequestChallenge>('/api/auth/second-factor/passkey/options', { method: 'POST', allowUnauthenticated: true });
  // Loaded when used: the app shell imports this module, and the dashboard's first load
  // does not need WebAuthn.
  const { signWithPasskey } = await import('@/lib/passkeys');
  const credential = await signWithPasskey(challenge);
  return auth('/api/auth/second-factor/passkey', { credential });
}
export const signOut = () => apiRequest<undefined>('/api/auth/sign-out', { method: 'POST', body: { everywhere: false }, allowUnauthenticated: true });
