// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { exportDataKey, newDataKey, open, PASSWORD_ITERATIONS, passwordLock, seal, unwrapDataKey, unwrapWithPassword, wrapDataKey, wrappingKey, wrapWithPassword, WRONG_PASSWORD } from './crypto';

const SECRET = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);

describe('offline copy encryption', () => {
  it('seals a record that opens only with its key and under its own name', async () => {
    const key = await newDataKey();
    const sealed = await seal(key, 'u1 /api/clients/1', { clientName: 'Ada Lovelace' });
    expect(new TextDecoder().decode(sealed.data)).not.toContain('Ada');
    expect(await open(key, 'u1 /api/clients/1', sealed)).toEqual({ clientName: 'Ada Lovelace' });
    await expect(open(key, 'u1 /api/clients/2', sealed)).rejects.toThrow();
    await expect(open(await newDataKey(), 'u1 /api/clients/1', sealed)).rejects.toThrow();
  });

  it("wraps the data key so only the server's secret for that user unwraps it", async () => {
    const key = await newDataKey();
    const wrapped = await wrapDataKey(key, await wrappingKey(SECRET, 'u1'));
    const raw = new Uint8Array(await exportDataKey(key));
    expect(new Uint8Array(wrapped)).not.toEqual(raw);
    const back = await unwrapDataKey(wrapped, await wrappingKey(SECRET, 'u1'));
    expect(new Uint8Array(await exportDataKey(back))).toEqual(raw);
    await expect(unwrapDataKey(wrapped, await wrappingKey(OTHER, 'u1'))).rejects.toThrow();
    await expect(unwrapDataKey(wrapped, await wrappingKey(SECRET, 'u2'))).rejects.toThrow();
  });

  it('refuses a secret that is not hexadecimal', async () => {
    await expect(wrappingKey('not hex', 'u1')).rejects.toThrow('hexadecimal');
  });

  it('wraps the data key by a password: the right password opens it, a wrong one fails with the message', async () => {
    const key = await newDataKey();
    const raw = new Uint8Array(await exportDataKey(key));
    const wrap = await wrapWithPassword(key, await passwordLock('correct horse battery'));
    expect(wrap.iterations).toBe(600_000);
    expect(PASSWORD_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(wrap.salt.byteLength).toBe(16);
    expect(new Uint8Array(wrap.wrapped)).not.toEqual(raw);
    const back = await unwrapWithPassword(wrap, 'correct horse battery');
    expect(new Uint8Array(await exportDataKey(back))).toEqual(raw);
    await expect(unwrapWithPassword(wrap, 'correct horse batterY')).rejects.toThrow(WRONG_PASSWORD);
    expect(WRONG_PASSWORD).toBe("That password does not open this device's visits.");
  }, 30_000);

  it('derives the password key from the stored salt and rounds: another salt or count opens nothing', async () => {
    const key = await newDataKey();
    const first = await wrapWithPassword(key, await passwordLock('same password'));
    const second = await wrapWithPassword(key, await passwordLock('same password'));
    // A fresh random salt at each wrap: the same password gives another wrapping key.
    expect(first.salt).not.toEqual(second.salt);
    expect(new Uint8Array(first.wrapped)).not.toEqual(new Uint8Array(second.wrapped));
    await expect(unwrapWithPassword({ ...first, salt: second.salt }, 'same password')).rejects.toThrow(WRONG_PASSWORD);
    await expect(unwrapWithPassword({ ...first, iterations: first.iterations - 1 }, 'same password')).rejects.toThrow(WRONG_PASSWORD);
    await expect(unwrapWithPassword({ ...first, iterations: 0 }, 'same password')).rejects.toThrow(WRONG_PASSWORD);
    // The same text in another Unicode form (é as one code point or as e + accent) opens it.
    const accented = await wrapWithPassword(key, await passwordLock('caf\u00e9 au lait'));
    expect(new Uint8Array(await exportDataKey(await unwrapWithPassword(accented, 'cafe\u0301 au lait')))).toEqual(new Uint8Array(await exportDataKey(key)));
  }, 60_000);
});
