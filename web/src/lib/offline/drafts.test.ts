// @vitest-environment node
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { prepareOfflineCopy, purgeExpired, readRecord, wipeOfflineCopy } from './copy';
import { offlineDb } from './db';
import { listDrafts, markDraft, readDraft, removeDraft, saveDraft } from './drafts';
import { lock, unlock } from './session-key';

const ACCESS = { device_key_secret: '11'.repeat(32), retention_days: 7, visit_days: 7 };

beforeEach(async () => {
  await wipeOfflineCopy();
});

describe('drafts kept on the device', () => {
  it('are sealed, kept in the order first saved, and read back only with the key', async () => {
    await unlock('u1', ACCESS);
    await saveDraft({ assessmentId: 'a2', intakeId: null, baseVersion: 4, mode: 'draft', form: { notes: 'second' } });
    await saveDraft({ assessmentId: 'a1', intakeId: null, baseVersion: 1, mode: 'complete', form: { notes: 'first' } });
    // Saved again, a draft keeps its place.
    await saveDraft({ assessmentId: 'a2', intakeId: null, baseVersion: 4, mode: 'draft', form: { notes: 'second, edited' } });
    expect((await listDrafts()).map((draft) => [draft.target, draft.form])).toEqual([
      ['a2', { notes: 'second, edited' }],
      ['a1', { notes: 'first' }],
    ]);
    const stored = await (await offlineDb()).getAll('drafts');
    expect(JSON.stringify(stored.map((row) => new TextDecoder().decode(row.sealed.data)))).not.toContain('edited');

    // A care plan asked for offline stays asked when the draft is saved again.
    await saveDraft({ assessmentId: 'a1', intakeId: null, baseVersion: 1, mode: 'complete', form: { notes: 'first' }, carePlan: true });
    await saveDraft({ assessmentId: 'a1', intakeId: null, baseVersion: 1, mode: 'complete', form: { notes: 'first' } });
    expect((await readDraft('a1'))?.carePlan).toBe(true);
    expect((await readDraft('a2'))?.carePlan).toBe(false);

    await markDraft('a1', { server: { id: 'a1', version: 2 } });
    expect((await readDraft('a1'))?.conflict).toEqual({ id: 'a1', version: 2 });
    await removeDraft('a2');
    expect(await readDraft('a2')).toBeNull();

    // A new tab offline has no key: the drafts are there but open for nobody.
    lock();
    expect(await listDrafts()).toEqual([]);
    // Signed in again, the server's secret opens them.
    await unlock('u1', ACCESS);
    expect((await listDrafts()).map((draft) => draft.target)).toEqual(['a1']);
    // A different secret (the server's key changed) opens nothing and drops them.
    await unlock('u1', { ...ACCESS, device_key_secret: '22'.repeat(32) });
    expect(await listDrafts()).toEqual([]);
  });

  it("keeps only the coming visits' records, erases them after the retention window, and on wipe", async () => {
    const answers: Record<string, unknown> = {
      '/api/account/offline': ACCESS,
      '/api/auth/me': { id: 'u1' },
      '/api/clients/i1': { assessment: { id: 'a1' } },
      '/api/intakes/i1/contacts': { items: [] },
      '/api/assessments/a1': { id: 'a1', version: 3 },
      '/api/clients/i2': { assessment: null },
      '/api/intakes/i2/contacts': { items: [] },
      '/api/assessments/prefill?intake_id=i2': { clientName: 'B' },
    };
    const asked: string[] = [];
    const get = <T,>(path: string): Promise<T> => {
      asked.push(path);
      if (path.startsWith('/api/visits?')) {
        return Promise.resolve({ items: [
          { intake_id: 'i1', status: 'scheduled' },
          { intake_id: 'i2', status: 'scheduled' },
          { intake_id: 'i3', status: 'cancelled' },
        ] } as T);
      }
      if (!(path in answers)) return Promise.reject(new Error(`unexpected ${path}`));
      return Promise.resolve(answers[path] as T);
    };
    const now = new Date('2026-03-02T10:00:00Z');
    await prepareOfflineCopy('u1', get, now);
    expect(asked.find((path) => path.startsWith('/api/visits?'))).toBe('/api/visits?from=2026-03-02&to=2026-03-09&assessor_id=u1&limit=200');
    expect(await readRecord('/api/assessments/a1')).toEqual({ id: 'a1', version: 3 });
    expect(await readRecord('/api/assessments/prefill?intake_id=i2')).toEqual({ clientName: 'B' });

    // The next round without i2's visit drops its records.
    const onlyFirst = <T,>(path: string): Promise<T> =>
      path.startsWith('/api/visits?') ? Promise.resolve({ items: [{ intake_id: 'i1', status: 'scheduled' }] } as T) : get<T>(path);
    await prepareOfflineCopy('u1', onlyFirst, now);
    expect(await readRecord('/api/assessments/prefill?intake_id=i2')).toBeUndefined();
    expect(await readRecord('/api/clients/i1')).toEqual({ assessment: { id: 'a1' } });

    await saveDraft({ assessmentId: 'a1', intakeId: null, baseVersion: 3, mode: 'draft', form: {} });
    await purgeExpired(Date.now() + 6 * 24 * 60 * 60 * 1000);
    expect(await readRecord('/api/clients/i1')).toBeDefined();
    await purgeExpired(Date.now() + 8 * 24 * 60 * 60 * 1000);
    expect(await readRecord('/api/clients/i1')).toBeUndefined();
    expect(await readDraft('a1')).toBeNull();

    await prepareOfflineCopy('u1', onlyFirst, now);
    await wipeOfflineCopy();
    expect(await readRecord('/api/clients/i1')).toBeUndefined();
  });
});
