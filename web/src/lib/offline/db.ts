/**
 * The offline copy's IndexedDB database (through `idb`): what a device keeps for the
 * signed-in assessor's coming visits, every value sealed (crypto.ts). Nothing here is
 * readable without the data key, which is stored only wrapped.
 */
import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from 'idb';
import type { PasswordWrap, Sealed } from './crypto';

export const OFFLINE_DB = 'carepath-offline';

/** One API answer kept for reading offline, under the path it was read from. */
export interface StoredRecord {
  /** `${userId} ${path}` */
  id: string;
  userId: string;
  path: string;
  savedAt: number;
  sealed: Sealed;
}

/** What an assessment draft is saved as once the server has it. */
export type DraftMode = 'draft' | 'complete';

/** An assessment saved on the device, waiting to be sent. */
export interface StoredDraft {
  /** `${userId} ${target}`: target is the assessment's id, or `intake:<id>` for a new one. */
  id: string;
  userId: string;
  target: string;
  /** The order drafts are sent in. */
  seq: number;
  assessmentId: string | null;
  intakeId: string | null;
  /** The stored version the form was based on; a changed record answers 409. */
  baseVersion: number | null;
  mode: DraftMode;
  savedAt: number;
  /** The form. */
  sealed: Sealed;
  /** The server's record when it had changed meanwhile: the assessor chooses field by field. */
  conflict: Sealed | null;
  /** The server's refusal in words (a required field missing), shown until fixed. */
  error: string | null;
  /** The assessor asked for the care plan offline: it is generated once the server has this. */
  carePlan?: boolean;
}

export interface StoredKey {
  userId: string;
  /** The data key, wrapped by the key derived from the server's secret. */
  wrapped: ArrayBuffer;
  /** Days the copy may be kept (Settings), as the server last said. */
  retentionDays: number;
  /**
   * The user's name as the server last said, in clear: a tab opened without a network
   * shows whose visits the device keeps before anything is unwrapped.
   */
  userName?: string;
  /** When the copy was last taken for this user (the user a new tab offline asks for). */
  usedAt?: number;
  /** The data key wrapped by the password of the user's last password sign-in here. */
  password?: (PasswordWrap & { wrappedAt: number }) | null;
}

interface OfflineSchema extends DBSchema {
  keys: { key: string; value: StoredKey };
  records: { key: string; value: StoredRecord; indexes: { byUser: string } };
  drafts: { key: string; value: StoredDraft; indexes: { byUser: string } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDb> | null = null;

export function offlineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB, 1, {
    upgrade(db) {
      db.createObjectStore('keys', { keyPath: 'userId' });
      db.createObjectStore('records', { keyPath: 'id' }).createIndex('byUser', 'userId');
      db.createObjectStore('drafts', { keyPath: 'id' }).createIndex('byUser', 'userId');
    },
    // Another tab wiping the copy (sign-out) must not wait on this one.
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
  });
  return opening;
}

/** Erases the whole database (sign-out). */
export async function deleteOfflineDb(): Promise<void> {
  const current = opening;
  opening = null;
  if (current) (await current).close();
  await deleteDB(OFFLINE_DB);
}
