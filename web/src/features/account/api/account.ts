import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { Schemas } from '@/api/types';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import { createPasskey, type PasskeyCreationChallenge } from '@/lib/passkeys';

export type ActiveSession = Schemas['ActiveSession'];

export const sessionsQueryOptions = queryOptions({
  queryKey: queryKeys.accountSessions,
  queryFn: ({ signal }) => api.get<{ items: ActiveSession[] }>('/api/account/sessions', undefined, signal),
});

/** The signed-in user's live sessions, as the server lists them. */
export function useSessions(enabled = true) {
  return useQuery({ ...sessionsQueryOptions, enabled });
}

/** Ends one session at once; the list refreshes either way. */
export function useEndSession() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`/api/account/sessions/${encodeURIComponent(id)}`),
    meta: { errorMessage: 'Failed to end the session' },
    onSettled: () => invalidate([queryKeys.accountSessions]),
  });
}

export type SecondFactorStatus = Schemas['SecondFactorStatus'];
export type TotpEnrolment = Schemas['TotpEnrolment'];
export type RecoveryCodes = Schemas['RecoveryCodes'];

/** Whether the user has an authenticator app, how many recovery codes are left, and
 * whether the agency requires one of them. */
export function useSecondFactor() {
  return useQuery({
    queryKey: queryKeys.accountFactors,
    queryFn: ({ signal }) => api.get<SecondFactorStatus>('/api/account/second-factor', undefined, signal),
  });
}

export function useStartTotp() {
  return useMutation({
    mutationFn: () => api.post<TotpEnrolment>('/api/account/totp'),
    meta: { errorMessage: 'Failed to start setting up the authenticator app' },
  });
}

/** Confirms the app with its current code; the recovery codes come back once. */
export function useConfirmTotp() {
  return useMutation({
    mutationFn: (code: string) => api.post<RecoveryCodes>('/api/account/totp/confirm', { code }),
  });
}

export type PasskeySummary = Schemas['PasskeySummary'];
export type PasskeyAdded = Schemas['PasskeyAdded'];

/** The signed-in user's passkeys, oldest first. */
export function usePasskeys(enabled = true) {
  return useQuery({
    queryKey: queryKeys.accountPasskeys,
    queryFn: ({ signal }) => api.get<{ items: PasskeySummary[] }>('/api/account/passkeys', undefined, signal),
    enabled,
  });
}

function useRefreshFactors() {
  const invalidate = useInvalidate();
  return () => invalidate([queryKeys.accountPasskeys, queryKeys.accountFactors, queryKeys.me]);
}

/** Adds a passkey named `name`: the server's challenge, the browser's ceremony (the
 * person touches the key or unlocks the device), then the answer back to the server. */
export function useAddPasskey() {
  const refresh = useRefreshFactors();
  return useMutation({
    mutationFn: async (name: string) => {
      const challenge = await api.post<PasskeyCreationChallenge>('/api/account/passkeys/options', { name });
      const credential = await createPasskey(challenge);
      return api.post<PasskeyAdded>('/api/account/passkeys', { credential });
    },
    // The card shows what went wrong beside the name.
    meta: { silent: true },
    onSettled: refresh,
  });
}

export function useRemovePasskey() {
  const refresh = useRefreshFactors();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`/api/account/passkeys/${encodeURIComponent(id)}`),
    meta: { errorMessage: 'Failed to remove the passkey' },
    onSettled: refresh,
  });
}
