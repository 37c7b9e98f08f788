// @vitest-environment node
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { purgeExpired, readRecord, saveRecord, wipeOfflineCopy } from './copy';
import { PASSWORD_ITERATIONS, WRONG_PASSWORD } from './crypto';
import { offlineDb } from './db';
import { listDrafts, saveDraft } from './drafts';
import { activeKey, deviceCopy, lock, rememberPassword, unlock, unlockWithPassword } from './session-key';

const ACCESS = { device_key_secret: '11'.repeat(32), retention_days: 7, visit_days: 7 };
const AVERY = { email: 'avery@agency.test', name: 'Avery Assessor' };
const DAY_MS = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  await wipeOfflineCopy();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('opening the copy without a network', () => {
  it('wraps the key by the password just typed; a new tab opens the copy with it, not with another', async () => {
    rememberPassword('Avery@Agency.test', 'kitchen table 42');
    await unlock('u1', ACCESS, AVERY);
    await saveRecord('/api/clients/i1', { clientName: 'Ada Lovelace' });
    await saveDraft({ assessmentId: 'a1', intakeId: null, baseVersion: 1, mode: 'draft', form: { notes: 'offline' } });
    const stored = await (await offlineDb()).get('keys', 'u1');
    expect(stored?.password?.iterations).toBe(PASSWORD_ITERATIONS);
    expect(stored?.password?.salt.byteLength).toBe(16);
    expect(stored?.userName).toBe('Avery Assessor');
    expect(await deviceCopy()).toEqual({ userId: 'u1', userName: 'Avery Assessor', byPassword: true });

    // A tab opened anew: no key, and the server out of reach.
    lock();
    expect(await activeKey()).toBeNull();
    expect(await readRecord('/api/clients/i1')).toBeUndefined();
    await expect(unlockWithPassword('u1', 'kitchen table 43')).rejects.toThrow(WRONG_PASSWORD);
    expect(await activeKey()).toBeNull();
    await unlockWithPassword('u1', 'kitchen table 42');
    expect(await readRecord('/api/clients/i1')).toEqual({ clientName: 'Ada Lovelace' });
    expect((await listDrafts()).map((draft) => draft.form)).toEqual([{ notes: 'offline' }]);
  }, 30_000);

  it('keeps no password wrap after a sign-in without a password, nor for a password typed for someone else', async () => {
    await unlock('u1', ACCESS, AVERY);
    expect(await deviceCopy()).toEqual({ userId: 'u1', userName: 'Avery Assessor', byPassword: false });
    rememberPassword('someone.else@agency.test', 'not yours');
    await unlock('u1', ACCESS, AVERY);
    expect((await (await offlineDb()).get('keys', 'u1'))?.password).toBeNull();
    lock();
    await expect(unlockWithPassword('u1', 'not yours')).rejects.toThrow(WRONG_PASSWORD);
  }, 30_000);

  it('keeps the wrap across later copies, rewraps at the next password sign-in, and drops it with a new data key', async () => {
    rememberPassword(AVERY.email, 'old password');
    await unlock('u1', ACCESS, AVERY);
    // A later copy in a tab that never saw the password keeps the wrap.
    lock();
    await unlock('u1', ACCESS, AVERY);
    lock();
    await unlockWithPassword('u1', 'old password');

    // The password was changed: the next password sign-in wraps the key under the new one.
    rememberPassword(AVERY.email, 'new password');
    await unlock('u1', ACCESS, AVERY);
    lock();
    await expect(unlockWithPassword('u1', 'old password')).rejects.toThrow(WRONG_PASSWORD);
    await unlockWithPassword('u1', 'new password');

    // The server's secret changed: the old key and its copy go, and so does the wrap.
    lock();
    await unlock('u1', { ...ACCESS, device_key_secret: '22'.repeat(32) }, AVERY);
    expect((await (await offlineDb()).get('keys', 'u1'))?.password).toBeNull();
  }, 60_000);

  it('erases the password wrap once the retention window has passed, and at sign-out', async () => {
    rememberPassword(AVERY.email, 'kitchen table 42');
    await unlock('u1', ACCESS, AVERY);
    // Past the window, before anything purged it: the wrap opens nothing and the screen
    // does not offer it.
    const later = Date.now() + 8 * DAY_MS;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    lock();
    expect(await deviceCopy()).toEqual({ userId: 'u1', userName: 'Avery Assessor', byPassword: false });
    await expect(unlockWithPassword('u1', 'kitchen table 42')).rejects.toThrow(WRONG_PASSWORD);
    vi.restoreAllMocks();
    await unlockWithPassword('u1', 'kitchen table 42');
    rememberPassword(AVERY.email, 'kitchen table 42');
    await unlock('u1', ACCESS, AVERY);
    await purgeExpired(Date.now() + 6 * DAY_MS);
    expect((await (await offlineDb()).get('keys', 'u1'))?.password).not.toBeNull();
    await purgeExpired(Date.now() + 8 * DAY_MS);
    expect((await (await offlineDb()).get('keys', 'u1'))?.password).toBeNull();
    lock();
    await expect(unlockWithPassword('u1', 'kitchen table 42')).rejects.toThrow(WRONG_PASSWORD);

    rememberPassword(AVERY.email, 'kitchen table 42');
    await unlock('u1', ACCESS, AVERY);
    await wipeOfflineCopy();
    expect(await deviceCopy()).toBeNull();
    // Signed out, the tab forgot the password too: the next copy is not wrapped by it.
    await unlock('u1', ACCESS, AVERY);
    expect(await deviceCopy()).toEqual({ userId: 'u1', userName: 'Avery Assessor', byPassword: false });
  }, 60_000);
});
