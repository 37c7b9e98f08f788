import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { invalidate, staleRoots } from '@/api/query-keys';

/** One change as `GET /api/events` announces it. */
export interface ChangeEvent {
  entity: string;
  id: string;
  action: string;
  intake_id?: string | null;
}


export function parseChangeEvent(data: string): ChangeEvent | null {
  try {
    const value = JSON.parse(data) as Partial<ChangeEvent>;
    if (typeof value.entity !== 'string') return null;
    return { entity: value.entity, id: value.id ?? '', action: value.action ?? '', intake_id: value.intake_id ?? null };
  } catch {
    return null;
  }
}

/** Keeps open screens current: every change pushed by the server refreshes the queries it touches. */
export function useLiveEvents(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events', { withCredentials: true });
    const handle = (message: MessageEvent<string>) => {
      const change = parseChangeEvent(message.data);
      if (!change) return;
      void invalidate(queryClient, staleRoots(change.entity));
    };
    source.addEventListener('message', handle);
    source.addEventListener('change', handle as EventListener);
    // The server missed some changes for this stream: refresh everything on screen.
    source.addEventListener('resync', () => void invalidate(queryClient, 'everything'));
    return () => source.close();
  }, [enabled, queryClient]);
}
