import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { isApiError } from './api-client';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Shown as the toast's text when the load fails and the server gave no message. */
      errorMessage?: string;
      errorTitle?: string;
      /** Put before the error's message: the spec's "Failed to load clients: {message}". */
      errorPrefix?: string;
      /** The spec has some loads fail quietly (only logged, an empty list shown). */
      silent?: boolean;
    };
    mutationMeta: {
      errorMessage?: string;
      errorTitle?: string;
      silent?: boolean;
    };
  }
}

interface ErrorMeta {
  errorMessage?: string;
  errorTitle?: string;
  errorPrefix?: string;
  silent?: boolean;
}

export function reportError(error: unknown, meta: ErrorMeta | undefined): void {
  if (isApiError(error) && error.status === 401) return;
  if (meta?.silent) {
    console.warn(meta.errorMessage ?? 'Load failed', error);
    return;
  }
  const serverMessage = isApiError(error) && error.message ? error.message : undefined;
  if (meta?.errorPrefix) {
    const reason = serverMessage ?? (error instanceof Error && error.message ? error.message : 'the server did not answer');
    toast.error(meta.errorTitle ?? 'Error', { description: `${meta.errorPrefix}: ${reason}` });
    return;
  }
  toast.error(meta?.errorTitle ?? 'Error', {
    description: serverMessage ?? meta?.errorMessage ?? 'Something went wrong',
  });
}

/**
 * For the reads and saves of a visit's assessment only. Every other screen keeps TanStack
 * Query's default: without a network its reads pause and run when the network is back.
 * These run anyway: a read is answered from the offline copy (lib/offline/copy.ts) by the
 * API client, and a save that cannot reach the server is kept on the device at once,
 * instead of pausing and being sent a second time when the network returns.
 */
export const OFFLINE_COPY_NETWORK_MODE = { networkMode: 'always' } as const;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => reportError(error, query.meta),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => reportError(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}
