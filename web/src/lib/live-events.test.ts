import { describe, expect, it } from 'vitest';
import { queryKeys, staleRoots } from '@/api/query-keys';
import { parseChanges, staleRootsOf } from './live-events';

const change = (seq: number, entity: string) => ({ seq, entity, id: `id-${seq}`, action: 'update', intake_id: null });

describe('parseChanges', () => {
  it('reads the array of a changes event, in order', () => {
    const changes = [change(7, 'intake'), change(8, 'communication')];
    expect(parseChanges(JSON.stringify(changes))).toEqual(changes);
  });

  it('leaves out what is not a change, and gives none for what is not an array', () => {
    expect(parseChanges(JSON.stringify([change(1, 'intake'), { seq: 2 }, null, 'x']))).toEqual([change(1, 'intake')]);
    expect(parseChanges(JSON.stringify(change(1, 'intake')))).toEqual([]);
    expect(parseChanges('{not json')).toEqual([]);
  });
});

describe('staleRootsOf', () => {
  it('names each root once for a batch that touches it many times', () => {
    const roots = staleRootsOf([change(1, 'communication'), change(2, 'communication'), change(3, 'intake')]);
    const names = roots.map((root) => JSON.stringify(root));
    expect(new Set(names).size).toBe(names.length);
    for (const root of [...staleRoots('communication'), ...staleRoots('intake')]) expect(names).toContain(JSON.stringify(root));
    expect(names).toContain(JSON.stringify(queryKeys.communications));
  });

  it('names none for an entity no screen shows', () => {
    expect(staleRootsOf([change(1, 'no-such-entity')])).toEqual([]);
  });
});
