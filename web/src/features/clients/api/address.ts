// The clients list's address from the page's, in a module of its own with nothing heavy
// to import: the page's first-data script (src/first-data.ts) asks for the list's first
// page with it before the app has loaded, and the list asks with it after.
import { STAGE_FILTER_VALUES } from '@/api/options.gen';
import type { ClientUrgency } from '@/api/types';
import { withQuery } from '@/lib/api-client';
import type { ClientsQuery, StageFilter } from './types';

/** The stage filter of the page's address (`?filter=care-plan` as the dashboard links it). */
export function stageFromParam(value: string | null): StageFilter | undefined {
  const normalized = value === 'care-plan' ? 'care_plan' : value;
  return STAGE_FILTER_VALUES.find((stage) => stage === normalized);
}

/**
 * The list the clients page asks for: the address's stage and owner, with what the user
 * chose on the page. With no choice yet it is the first page the address opens, which
 * the app fetches alongside the session check (app/screens.ts).
 */
export function clientsQueryFor(
  params: URLSearchParams,
  chosen: { urgency?: ClientUrgency | undefined; q?: string | undefined; cursor: string | null } = { cursor: null },
): ClientsQuery {
  return { stage: stageFromParam(params.get('filter')), urgency: chosen.urgency, q: chosen.q, owner: params.get('owner') || undefined, cursor: chosen.cursor };
}

/** Where the list of `query` is read. */
export function clientsAddress(query: ClientsQuery): string {
  return withQuery('/api/clients', { ...query });
}
