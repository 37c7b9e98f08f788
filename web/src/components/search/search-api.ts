import { queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { IntakeSummary } from '@/api/types';
import { api } from '@/lib/api-client';

export interface SearchResponse {
  items: IntakeSummary[];
}

/** Search runs only with 2 or more typed characters. */
export const SEARCH_MIN_CHARACTERS = 2;
export const SEARCH_DEBOUNCE_MS = 300;

export function searchQueryOptions(term: string) {
  return queryOptions({
    queryKey: queryKeys.search(term),
    queryFn: ({ signal }) => api.get<SearchResponse>('/api/search', { q: term }, signal),
    enabled: term.length >= SEARCH_MIN_CHARACTERS,
    staleTime: 10_000,
    meta: { silent: true },
  });
}
