/**
 * The unwrapped data key of the signed-in user, for this tab only: in memory, and in the
 * tab's session storage so a reload without a network still opens the copy. A closed tab
 * forgets it; the device then keeps only ciphertext until the user is online and signed
 * in again (the server's secret unwraps the stored key).
 */
import { exportDataKey, fromBase64, importDataKey, newDataKey, toBase64, unwrapDataKey, wrapDataKey, wrappingKey } from './crypto';
import { type OfflineDb, offlineDb } from './db';

const SESSION_ITEM = 'carepath.offline.key';

export interface ActiveKey {
  userId: string;
  key: CryptoKey;
}

let active: ActiveKey | null = null;

/** The key of this tab's signed-in user, or null (signed out, or a new tab offline). */
export async function activeKey(): Promise<ActiveKey | null> {
  if (active) return active;
  let text: string | null = null;
  try {
    text = sessionStorage.getItem(SESSION_ITEM);
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const { userId, key } = JSON.parse(text) as { userId: string; key: string };
    active = { userId, key: await importDataKey(fromBase64(key)) };
    return active;
  } catch {
    return null;
  }
}

/** What the server gives a signed-in session for its offline copy. */
export interface OfflineAccessAnswer {
  device_key_secret: string;
  retention_days: number;
  visit_days: number;
}

/**
 * Opens the user's stored data key with the server's secret, or makes one. A stored key
 * the secret does not open (the server's key changed) cannot open its copy either: the
 * user's records and drafts go with it.
 */
export async function unlock(userId: string, access: OfflineAccessAnswer, db?: OfflineDb): Promise<ActiveKey> {
  const store = db ?? (await offlineDb());
  const wrapping = await wrappingKey(access.device_key_secret, userId);
  const stored = await store.get('keys', userId);
  let key: CryptoKey | null = null;
  if (stored) {
    try {
      key = await unwrapDataKey(stored.wrapped, wrapping);
    } catch {
      await forgetUser(store, userId);
    }
  }
  if (!key) key = await newDataKey();
  await store.put('keys', { userId, wrapped: await wrapDataKey(key, wrapping), retentionDays: access.retention_days });
  active = { userId, key };
  try {
    sessionStorage.setItem(SESSION_ITEM, JSON.stringify({ userId, key: toBase64(await exportDataKey(key)) }));
  } catch {
    // Without session storage the key lasts until the page reloads.
  }
  return active;
}

/** Forgets the key in this tab (sign-out). */
export function lock(): void {
  active = null;
  try {
    sessionStorage.removeItem(SESSION_ITEM);
  } catch {
    // Nothing was kept.
  }
}

async function forgetUser(db: OfflineDb, userId: string): Promise<void> {
  const tx = db.transaction(['keys', 'records', 'drafts'], 'readwrite');
  await tx.objectStore('keys').delete(userId);
  const records = tx.objectStore('records');
  for (const id of await records.index('byUser').getAllKeys(userId)) await records.delete(id);
  const drafts = tx.objectStore('drafts');
  for (const id of await drafts.index('byUser').getAllKeys(userId)) await drafts.delete(id);
  await tx.done;
}
