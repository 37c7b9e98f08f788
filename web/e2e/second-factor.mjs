// Browser tests of the second factor: a new member of staff sets up an authenticator app
// from Your Account (QR code and key, confirmed with a code), keeps the ten recovery
// codes, then signs in with a code, with a recovery code once, and is refused the same
// recovery code again.
import { createHmac } from 'node:crypto';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';
import { newStaffUser, signInOnPage } from './account.mjs';

/** RFC 4648 base32 to bytes (the key an authenticator app is given). */
function base32Bytes(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes = [];
  for (let index = 0; index + 8 <= bits.length; index += 8) bytes.push(parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** The six-digit code an authenticator app shows at `seconds` (RFC 6238: HMAC-SHA-1, 30 s). */
export function totp(secret, seconds = Date.now() / 1000) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(seconds / 30)));
  const digest = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

export function secondFactorTests({ admin }) {
  async function signOut(page) {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/login/);
  }

  async function codeStep(page, user, code) {
    await signInOnPage(page, user);
    await page.getByText('Two-Step Verification').waitFor();
    await page.getByLabel('Authentication Code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
  }

  return [
    {
      name: 'second factor: set up an authenticator app, then sign in with a code and with a recovery code once',
      as: admin,
      async run(page) {
        const user = await newStaffUser(page, 'totp');
        await page.context().clearCookies();
        await signInOnPage(page, user);
        await page.waitForURL((url) => !url.pathname.startsWith('/login'));
        await page.getByRole('link', { name: /Your account/ }).click();
        await page.getByRole('button', { name: 'Set Up Authenticator App' }).click();

        const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
        await expectOnScreen(qr, 'the QR code');
        await page.waitForFunction(() => {
          const image = document.querySelector('img[alt="QR code for your authenticator app"]');
          return image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0;
        });
        const secret = await page.getByLabel('Key', { exact: true }).inputValue();
        expect(/^[A-Z2-7]{32}$/.test(secret), `the key is not base32: ${secret}`);
        await expectAccessible(page, 'setting up an authenticator app');
        await page.getByLabel('Code from the app').fill(totp(secret));
        await page.getByRole('button', { name: 'Confirm' }).click();

        const list = page.getByRole('list', { name: 'Recovery codes' });
        await expectOnScreen(list, 'the recovery codes');
        const codes = (await list.getByRole('listitem').allTextContents()).map((text) => text.trim());
        expect(codes.length === 10 && codes.every((code) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(code)), `not ten recovery codes: ${codes.join(', ')}`);
        await page.getByRole('button', { name: 'I Have Saved These Codes' }).click();
        await expectOnScreen(page.getByText('Recovery codes left:'), 'the second factor being on');
        expect((await page.getByText('Recovery codes left:').textContent()).includes('10'), 'ten codes are not left');
        // The key is not shown again.
        expect((await page.getByLabel('Key', { exact: true }).count()) === 0, 'the key is still on the page');

        // The password alone no longer signs in: the app's code does. The step after
        // the one used to confirm is always new.
        await signOut(page);
        await codeStep(page, user, totp(secret, Date.now() / 1000 + 30));
        await page.waitForURL((url) => !url.pathname.startsWith('/login'));
        await page.getByRole('link', { name: /Your account/ }).waitFor();

        // A recovery code, once.
        await signOut(page);
        await codeStep(page, user, codes[0]);
        await page.waitForURL((url) => !url.pathname.startsWith('/login'));
        await page.getByRole('link', { name: /Your account/ }).click();
        await expectOnScreen(page.getByText('Recovery codes left:'), 'the codes left');
        expect((await page.getByText('Recovery codes left:').textContent()).includes('9'), 'a used recovery code is still counted');

        await signOut(page);
        await codeStep(page, user, codes[0]);
        const refused = page.getByRole('alert').filter({ hasText: 'That code is not valid' }).first();
        await expectOnScreen(refused, 'the refused recovery code');
        expect(page.url().includes('/login'), 'a used recovery code signed in');
      },
    },
  ];
}
