import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { components } from '@/api/schema';
import { invalidate, staleRoots } from '@/api/query-keys';

/** One change as `GET /api/events` announces it. */
export type ChangeEvent = components['schemas']['ChangeEvent'];

/**
 * The changes of one `changes` event (a JSON array, in order); those that cannot be read
 * are left out, and a message that is not an array gives none.
 */
export function parseChanges(data: string): ChangeEvent[] {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.filter(
    (change): change is ChangeEvent =>
      typeof change === 'object' && change !== null && typeof (change as Partial<ChangeEvent>).entity === 'string',
  );
}

/** The query roots a batch of changes makes stale, each once. */
export function staleRootsOf(changes: readonly ChangeEvent[]): QueryKey[] {
  const roots = new Map<string, QueryKey>();
  for (const change of changes) for (const root of staleRoots(change.entity)) roots.set(JSON.stringify(root), root);
  return [...roots.values()];
}

/** Keeps open screens current: every change pushed by the server refreshes the queries it touches. */
export function useLiveEvents(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events', { withCredentials: true });
    const handle = (message: MessageEvent<string>) => {
      const roots = staleRootsOf(parseChanges(message.data));
      if (roots.length > 0) void invalidate(queryClient, roots);
    };
    source.addEventListener('changes', handle as EventListener);
    // The server missed some changes for this stream: refresh everything on screen.
    source.addEventListener('resync', () => void invalidate(queryClient, 'everything'));
    return () => source.close();
  }, [enabled, queryClient]);
}
