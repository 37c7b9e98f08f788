import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidate, queryKeys, STALE_ROOTS, staleRoots } from './query-keys';

function clientWith(keys: readonly (readonly unknown[])[]): QueryClient {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, { loaded: true });
  return client;
}

const stale = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

describe('invalidate', () => {
  it('makes every query under the roots stale, and no other', async () => {
    const keys = [queryKeys.contract('c1'), queryKeys.signingStatus('c1'), queryKeys.client('i1'), queryKeys.settings, queryKeys.visits];
    const client = clientWith(keys);
    await invalidate(client, STALE_ROOTS.contract);
    expect(stale(client, queryKeys.contract('c1'))).toBe(true);
    expect(stale(client, queryKeys.signingStatus('c1'))).toBe(true);
    expect(stale(client, queryKeys.client('i1'))).toBe(true);
    expect(stale(client, queryKeys.settings)).toBe(false);
    expect(stale(client, queryKeys.visits)).toBe(false);
  });

  it('makes everything stale when asked to', async () => {
    const client = clientWith([queryKeys.settings, queryKeys.me]);
    await invalidate(client, 'everything');
    expect(stale(client, queryKeys.settings)).toBe(true);
    expect(stale(client, queryKeys.me)).toBe(true);
  });
});

describe('staleRoots', () => {
  it('names the roots of an entity the server announces, and none for others', () => {
    expect(staleRoots('contract')).toBe(STALE_ROOTS.contract);
    expect(staleRoots('user')).toEqual([]);
    expect(staleRoots('toString')).toEqual([]);
  });
});
