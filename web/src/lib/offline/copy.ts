/**
 * The offline copy of the API answers a visit needs: for the signed-in assessor's visits
 * of today and the coming days, the client's profile (intake summary, assessment), their
 * contacts and their assessment (or the form prefilled from the intake). Taken when the
 * app starts online; read by the API client when the network is gone. Nothing else is
 * kept, and a round drops what the visits no longer need.
 */
import { open, seal } from './crypto';
import { deleteOfflineDb, offlineDb } from './db';
import { activeKey, lock, type OfflineAccessAnswer, unlock } from './session-key';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The reads the copy answers offline, besides the visits' own paths. */
const ME_PATH = '/api/auth/me';

type Fetch = <T>(path: string) => Promise<T>;

interface VisitRow {
  intake_id: string;
  status: string;
}

interface MeAnswer {
  email: string;
  full_name?: string | null;
}

interface ClientProfileAnswer {
  assessment?: { id: string } | null;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export async function saveRecord(path: string, value: unknown): Promise<void> {
  const current = await activeKey();
  if (!current) return;
  const db = await offlineDb();
  const id = `${current.userId} ${path}`;
  await db.put('records', { id, userId: current.userId, path, savedAt: Date.now(), sealed: await seal(current.key, id, value) });
}

/** The kept answer of a GET, or undefined when the copy does not hold it (or cannot be opened). */
export async function readRecord<T>(path: string): Promise<T | undefined> {
  const current = await activeKey();
  if (!current) return undefined;
  const db = await offlineDb();
  const id = `${current.userId} ${path}`;
  const record = await db.get('records', id);
  if (!record) return undefined;
  try {
    return await open<T>(current.key, id, record.sealed);
  } catch {
    return undefined;
  }
}

/**
 * Takes the copy for `userId`: unlocks the device key with the server's secret, then
 * keeps what each coming visit needs. Answers the paths it kept.
 */
export async function prepareOfflineCopy(userId: string, get: Fetch, now = new Date()): Promise<string[]> {
  const access = await get<OfflineAccessAnswer>('/api/account/offline');
  const me = await get<MeAnswer>(ME_PATH);
  await unlock(userId, access, { email: me.email, name: me.full_name || me.email });
  await purgeExpired(now.getTime());
  const kept: string[] = [];
  const keep = async (path: string) => {
    const value = await get<unknown>(path);
    await saveRecord(path, value);
    kept.push(path);
    return value;
  };
  await saveRecord(ME_PATH, me);
  kept.push(ME_PATH);
  const to = new Date(now.getTime() + access.visit_days * DAY_MS);
  const visits = await get<{ items: VisitRow[] }>(`/api/visits?from=${isoDate(now)}&to=${isoDate(to)}&assessor_id=${encodeURIComponent(userId)}&limit=200`);
  const intakes = [...new Set(visits.items.filter((visit) => visit.status === 'scheduled').map((visit) => visit.intake_id))];
  for (const intakeId of intakes) {
    try {
      const profile = (await keep(`/api/clients/${intakeId}`)) as ClientProfileAnswer;
      await keep(`/api/intakes/${intakeId}/contacts`);
      if (profile.assessment) await keep(`/api/assessments/${profile.assessment.id}`);
      else await keep(`/api/assessments/prefill?intake_id=${intakeId}`);
    } catch (error) {
      // One client out of reach (archived or deleted since) leaves the others kept.
      console.warn('A visit could not be kept offline', error);
    }
  }
  await dropOthers(userId, kept);
  return kept;
}

/** Drops the user's records the visits no longer need. */
async function dropOthers(userId: string, kept: string[]): Promise<void> {
  const db = await offlineDb();
  const wanted = new Set(kept.map((path) => `${userId} ${path}`));
  const tx = db.transaction('records', 'readwrite');
  for (const id of await tx.store.index('byUser').getAllKeys(userId)) {
    if (!wanted.has(id)) await tx.store.delete(id);
  }
  await tx.done;
}

/**
 * Erases records and drafts older than each user's retention window, and the key's
 * password wrap made longer ago than that (the copy is no longer opened offline by it).
 */
export async function purgeExpired(now = Date.now()): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction(['keys', 'records', 'drafts'], 'readwrite');
  for (const key of await tx.objectStore('keys').getAll()) {
    const cutoff = now - key.retentionDays * DAY_MS;
    if (key.password && key.password.wrappedAt < cutoff) await tx.objectStore('keys').put({ ...key, password: null });
    for (const record of await tx.objectStore('records').index('byUser').getAll(key.userId)) {
      if (record.savedAt < cutoff) await tx.objectStore('records').delete(record.id);
    }
    for (const draft of await tx.objectStore('drafts').index('byUser').getAll(key.userId)) {
      if (draft.savedAt < cutoff) await tx.objectStore('drafts').delete(draft.id);
    }
  }
  await tx.done;
}

/**
 * Erases everything the device took offline (sign-out): the database, this tab's key,
 * and any API answer a cache might hold. The app's own files stay: they hold no records.
 */
export async function wipeOfflineCopy(): Promise<void> {
  lock();
  await deleteOfflineDb();
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname.startsWith('/api/')) await cache.delete(request);
    }
  }
}
