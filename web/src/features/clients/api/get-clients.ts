import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api, withQuery } from '@/lib/api-client';
import { STAGE_FILTER_VALUES } from '@/api/options.gen';
import type { ClientUrgency } from '@/api/types';
import type { ClientPage, ClientsQuery, StageFilter } from './types';

export const getClients = (query: ClientsQuery, signal?: AbortSignal) => api.get<ClientPage>('/api/clients', { ...query }, signal);

export function clientsQueryOptions(query: ClientsQuery) {
  return queryOptions({
    queryKey: queryKeys.clientList(query),
    queryFn: ({ signal }) => getClients(query, signal),
    placeholderData: keepPreviousData,
    meta: { errorPrefix: 'Failed to load clients' },
  });
}

export const useClients = (query: ClientsQuery) => useQuery(clientsQueryOptions(query));

/** The clients export with the list's filters: the file holds every row the list shows. */
export function clientsExportUrl(query: Pick<ClientsQuery, 'stage' | 'urgency' | 'q'>): string {
  return withQuery('/api/clients/export.csv', { stage: query.stage, urgency: query.urgency, q: query.q });
}

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
