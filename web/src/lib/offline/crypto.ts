/**
 * The offline copy's encryption (Web Crypto): records and unsent assessments are sealed
 * with AES-GCM under a random data key; the data key is stored only wrapped (AES-KW): by a
 * key derived (HKDF-SHA-256) from the secret the server gives a signed-in session, and,
 * after a sign-in with a password, also by a key derived from that password
 * (PBKDF2-SHA-256), so a tab opened without a network can open the copy. A device without
 * the session or the password holds ciphertext and wrapped keys, and opens nothing.
 */

export interface Sealed {
  iv: Uint8Array<ArrayBuffer>;
  data: ArrayBuffer;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) throw new Error('The device key secret is not hexadecimal.');
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/** The key that wraps the data key: HKDF over the server's per-user secret, bound to the user. */
export async function wrappingKey(secretHex: string, userId: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', fromHex(secretHex), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(`carepath offline ${userId}`), info: encoder.encode('wrap the offline copy key') },
    material,
    { name: 'AES-KW', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

/** A fresh data key. Extractable only so it can be wrapped. */
export function newDataKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
}

export async function wrapDataKey(dataKey: CryptoKey, wrapping: CryptoKey): Promise<ArrayBuffer> {
  return crypto.subtle.wrapKey('raw', dataKey, wrapping, 'AES-KW');
}

/** The data key, or a rejection when `wrapping` is not the key it was wrapped with. */
export async function unwrapDataKey(wrapped: ArrayBuffer, wrapping: CryptoKey): Promise<CryptoKey> {
  return crypto.subtle.unwrapKey('raw', wrapped, wrapping, 'AES-KW', { name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
}

/**
 * PBKDF2-SHA-256 rounds for the password's wrapping key: OWASP's figure for 2023 on. It is
 * what a thief with the device pays per guess, offline, with no server to stop them.
 */
export const PASSWORD_ITERATIONS = 600_000;
/** More rounds than this is not a wrap this app made (and would hang the device). */
const MAX_PASSWORD_ITERATIONS = 10_000_000;

/** What a tab opened without a network shows for a password that does not unwrap the key. */
export const WRONG_PASSWORD = "That password does not open this device's visits.";

/** The data key wrapped by the user's password, with what derives that password's key again. */
export interface PasswordWrap {
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
  wrapped: ArrayBuffer;
}

/** A key derived from a password just typed, held in memory until the data key is wrapped. */
export interface PasswordLock {
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
  key: CryptoKey;
}

async function derivePasswordKey(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  // The same password typed on another keyboard may come in another Unicode form.
  const material = await crypto.subtle.importKey('raw', encoder.encode(password.normalize('NFC')), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-KW', length: 256 }, false, ['wrapKey', 'unwrapKey']);
}

/** The password's wrapping key under a fresh random salt (16 bytes). */
export async function passwordLock(password: string): Promise<PasswordLock> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { salt, iterations: PASSWORD_ITERATIONS, key: await derivePasswordKey(password, salt, PASSWORD_ITERATIONS) };
}

export async function wrapWithPassword(dataKey: CryptoKey, lock: PasswordLock): Promise<PasswordWrap> {
  return { salt: lock.salt, iterations: lock.iterations, wrapped: await wrapDataKey(dataKey, lock.key) };
}

/** The data key, or a rejection saying the password does not open it. */
export async function unwrapWithPassword(wrap: PasswordWrap, password: string): Promise<CryptoKey> {
  if (!Number.isInteger(wrap.iterations) || wrap.iterations < 1 || wrap.iterations > MAX_PASSWORD_ITERATIONS) throw new Error(WRONG_PASSWORD);
  try {
    return await unwrapDataKey(wrap.wrapped, await derivePasswordKey(password, wrap.salt, wrap.iterations));
  } catch {
    // AES-KW's integrity check is what tells a wrong password.
    throw new Error(WRONG_PASSWORD);
  }
}

/** The data key's bytes, kept for this tab only (see session-key.ts). */
export async function exportDataKey(dataKey: CryptoKey): Promise<ArrayBuffer> {
  return crypto.subtle.exportKey('raw', dataKey);
}

export async function importDataKey(raw: ArrayBuffer): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
}

/**
 * `value` as JSON, sealed under `key`; `label` (the record's name) is bound in as
 * associated data, so one record's ciphertext cannot be passed off as another's.
 */
export async function seal(key: CryptoKey, label: string, value: unknown): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(label) }, key, encoder.encode(JSON.stringify(value)));
  return { iv, data };
}

export async function open<T>(key: CryptoKey, label: string, sealed: Sealed): Promise<T> {
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: encoder.encode(label) }, key, sealed.data);
  return JSON.parse(decoder.decode(plain)) as T;
}

export function toBase64(buffer: ArrayBuffer): string {
  let text = '';
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text);
}

export function fromBase64(text: string): ArrayBuffer {
  const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  return bytes.buffer;
}
