import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@/api/types';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';

export type ActiveSession = Schemas['ActiveSession'];

export const sessionsQueryOptions = queryOptions({
  queryKey: queryKeys.accountSessions,
  queryFn: ({ signal }) => api.get<{ items: ActiveSession[] }>('/api/account/sessions', undefined, signal),
});

/** The signed-in user's live sessions, as the server lists them. */
export function useSessions() {
  return useQuery(sessionsQueryOptions);
}

/** Ends one session at once; the list refreshes either way. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(`/api/account/sessions/${encodeURIComponent(id)}`),
    meta: { errorMessage: 'Failed to end the session' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.accountSessions }),
  });
}
