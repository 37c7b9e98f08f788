// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { exportDataKey, newDataKey, open, seal, unwrapDataKey, wrapDataKey, wrappingKey } from './crypto';

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
});
