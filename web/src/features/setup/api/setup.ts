import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { apiRequest } from '@/lib/api-client';

export type SetupForm = Schemas['SetupForm'];
export type SetupState = Schemas['SetupState'];
export type CurrentUser = Schemas['SessionUser'];

export const setupStateQueryOptions = queryOptions({
  queryKey: queryKeys.setup,
  queryFn: ({ signal }) => apiRequest<SetupState>('/api/setup', { signal, allowUnauthenticated: true }),
});

/** Whether Carepath still needs setting up, and the server's time zone. */
export function useSetupState() {
  return useQuery(setupStateQueryOptions);
}

/** Sets the agency up; the answer is its first administrator, signed in. */
export const completeSetup = (form: SetupForm) => apiRequest<CurrentUser>('/api/setup', { method: 'POST', body: form, allowUnauthenticated: true });

/** The logo, uploaded once the administrator is signed in. */
export const uploadLogo = (file: File) => apiRequest<unknown>('/api/settings/logo', { method: 'PUT', file });
