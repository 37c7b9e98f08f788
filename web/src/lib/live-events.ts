import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/** One change as `GET /api/events` announces it. */
export interface ChangeEvent {
  entity: string;
  id: string;
  action: string;
  intake_id?: string | null;
}

/** Which query key prefixes a change of each entity makes stale. */
const STALE_KEYS: Record<string, string[]> = {
  communication: ['communications', 'client', 'dashboard'],
  intake: ['intakes', 'intake', 'clients', 'client', 'dashboard', 'search'],
  assessment: ['assessments', 'assessment', 'clients', 'client', 'dashboard', 'intakes'],
  care_plan: ['care-plans', 'clients', 'client', 'dashboard', 'assessments'],
  contract: ['contracts', 'clients', 'client', 'dashboard'],
  signing_link: ['contracts'],
  contact: ['contacts', 'client'],
};

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
      const prefixes = STALE_KEYS[change.entity] ?? [];
      for (const prefix of prefixes) {
        void queryClient.invalidateQueries({ queryKey: [prefix] });
      }
    };
    source.addEventListener('message', handle);
    source.addEventListener('change', handle as EventListener);
    // The server missed some changes for this stream: refresh everything on screen.
    source.addEventListener('resync', () => void queryClient.invalidateQueries());
    return () => source.close();
  }, [enabled, queryClient]);
}
