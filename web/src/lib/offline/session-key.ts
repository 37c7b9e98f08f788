/**
 * The unwrapped data key of the signed-in user, for this tab only: in memory, and in the
 * tab's session storage so a reload without a network still opens the copy. A closed tab
 * forgets it; the stored key is then unwrapped by the server's secret once the user is
 * online and signed in again, or, without a network, by the password of the user's last
 * password sign-in on this device (wrapped when the copy is taken after one).
 */
import {
  exportDataKey,
  fromBase64,
  importDataKey,
  newDataKey,
  type PasswordLock,
  passwordLock,
  toBase64,
  unwrapDataKey,
  unwrapWithPassword,
  WRONG_PASSWORD,
  wrapDataKey,
  wrappingKey,
  wrapWithPassword,
} from './crypto';
import { type OfflineDb, offlineDb, type StoredKey } from './db';

const SESSION_ITEM = 'carepath.offline.key';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A password wrap older than the retention window opens nothing, purged yet or not. */
function passwordWrapHolds(stored: StoredKey, now: number): stored is StoredKey & { password: NonNullable<StoredKey['password']> } {
  return Boolean(stored.password) && (stored.password?.wrappedAt ?? 0) >= now - stored.retentionDays * DAY_MS;
}

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

/**
 * The key derived from the password of this tab's last password sign-in, for the user of
 * that email: it wraps the data key each time the copy is taken. Kept in memory only (the
 * password itself is dropped once derived), and forgotten at sign-out.
 */
let typedPassword: { email: string; lock: Promise<PasswordLock> } | null = null;

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Called once the server has accepted `password` for `email` (sign-in, sign-up, reset). */
export function rememberPassword(email: string, password: string): void {
  const lock = passwordLock(password);
  // A failed derivation only means no offline opening by password; it is never awaited
  // by the sign-in itself.
  lock.catch(() => undefined);
  typedPassword = { email, lock };
}

async function typedPasswordFor(email: string | undefined): Promise<PasswordLock | null> {
  if (!typedPassword || email === undefined || !sameEmail(typedPassword.email, email)) return null;
  try {
    return await typedPassword.lock;
  } catch {
    return null;
  }
}

/** Who the copy is taken for: shown (name) and matched to a password just typed (email). */
export interface CopyHolder {
  email: string;
  name: string;
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
export async function unlock(userId: string, access: OfflineAccessAnswer, holder?: CopyHolder, db?: OfflineDb): Promise<ActiveKey> {
  const store = db ?? (await offlineDb());
  const wrapping = await wrappingKey(access.device_key_secret, userId);
  const stored = await store.get('keys', userId);
  let key: CryptoKey | null = null;
  // A password wrap holds only while it wraps the same data key.
  let password: StoredKey['password'] = null;
  if (stored) {
    try {
      key = await unwrapDataKey(stored.wrapped, wrapping);
      password = stored.password ?? null;
    } catch {
      await forgetUser(store, userId);
    }
  }
  if (!key) key = await newDataKey();
  // The password just typed (a changed one too) wraps the key afresh, under a new salt.
  const typed = await typedPasswordFor(holder?.email);
  if (typed) password = { ...(await wrapWithPassword(key, typed)), wrappedAt: Date.now() };
  await store.put('keys', {
    userId,
    wrapped: await wrapDataKey(key, wrapping),
    retentionDays: access.retention_days,
    userName: holder?.name ?? stored?.userName,
    usedAt: Date.now(),
    password,
  });
  await keep({ userId, key });
  return { userId, key };
}

async function keep(next: ActiveKey): Promise<void> {
  active = next;
  const raw = await exportDataKey(next.key);
  try {
    sessionStorage.setItem(SESSION_ITEM, JSON.stringify({ userId: next.userId, key: toBase64(raw) }));
  } catch {
    // Without session storage the key lasts until the page reloads.
  }
}

/** Whose copy a tab opened without a network can offer to open, and whether by password. */
export interface DeviceCopy {
  userId: string;
  userName: string;
  /** False: the copy was taken after a sign-in without a password (a magic link). */
  byPassword: boolean;
}

/** The copy of the user the device last took one for, or null when it keeps none. */
export async function deviceCopy(db?: OfflineDb): Promise<DeviceCopy | null> {
  const store = db ?? (await offlineDb());
  const keys = await store.getAll('keys');
  keys.sort((a, b) => (b.usedAt ?? 0) - (a.usedAt ?? 0));
  const last = keys[0];
  if (!last) return null;
  return { userId: last.userId, userName: last.userName ?? '', byPassword: passwordWrapHolds(last, Date.now()) };
}

/**
 * Opens the user's copy in this tab with their password, with no network: the key then
 * serves this tab as one unwrapped with the server's secret does. Rejects with
 * WRONG_PASSWORD when the password does not unwrap it.
 */
export async function unlockWithPassword(userId: string, password: string, db?: OfflineDb): Promise<ActiveKey> {
  const store = db ?? (await offlineDb());
  const stored = await store.get('keys', userId);
  if (!stored || !passwordWrapHolds(stored, Date.now())) throw new Error(WRONG_PASSWORD);
  const key = await unwrapWithPassword(stored.password, password);
  await keep({ userId, key });
  return { userId, key };
}

/** Forgets the key in this tab, and the password just typed (sign-out). */
export function lock(): void {
  active = null;
  typedPassword = null;
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
