import { beforeEach, describe, expect, it } from 'vitest';
import { readLocalDraft, removeLocalDraft, removeLocalDrafts, writeLocalDraft } from './local-drafts';

describe('local drafts', () => {
  beforeEach(() => localStorage.clear());

  it('keeps one draft per user and name', () => {
    writeLocalDraft('user-1', 'new-intake', { callerName: 'Pat' });
    writeLocalDraft('user-2', 'new-intake', { callerName: 'Sam' });
    expect(readLocalDraft<{ callerName: string }>('user-1', 'new-intake')?.values).toEqual({ callerName: 'Pat' });
    expect(readLocalDraft<{ callerName: string }>('user-2', 'new-intake')?.values).toEqual({ callerName: 'Sam' });
    expect(readLocalDraft('user-1', 'other')).toBeNull();
    removeLocalDraft('user-1', 'new-intake');
    expect(readLocalDraft('user-1', 'new-intake')).toBeNull();
    expect(readLocalDraft('user-2', 'new-intake')).not.toBeNull();
  });

  it('removes every draft of the user who signs out, and only theirs', () => {
    writeLocalDraft('user-1', 'new-intake', { a: 1 });
    writeLocalDraft('user-1', 'another', { b: 2 });
    writeLocalDraft('user-10', 'new-intake', { c: 3 });
    localStorage.setItem('carepath.sidebar', 'collapsed');
    removeLocalDrafts('user-1');
    expect(readLocalDraft('user-1', 'new-intake')).toBeNull();
    expect(readLocalDraft('user-1', 'another')).toBeNull();
    expect(readLocalDraft('user-10', 'new-intake')).not.toBeNull();
    expect(localStorage.getItem('carepath.sidebar')).toBe('collapsed');
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem('carepath.draft.user-1.new-intake', '{not json');
    expect(readLocalDraft('user-1', 'new-intake')).toBeNull();
    localStorage.setItem('carepath.draft.user-1.new-intake', JSON.stringify({ values: 'text' }));
    expect(readLocalDraft('user-1', 'new-intake')).toBeNull();
  });
});
