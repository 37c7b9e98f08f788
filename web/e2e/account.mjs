// Browser tests of staff accounts: a user sees where they are signed in and ends another
// browser's session; an administrator re-enables a disabled user from the Users screen.
import { request } from 'playwright-core';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

export const ORIGIN = () => new URL(process.env.CAREPATH_URL).origin;

/** A fresh staff user made by the administrator signed in on `page`; its credentials. */
export async function newStaffUser(page, prefix) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const user = { email: `${prefix}.${stamp}@carepath.test`, password: `pass-${stamp}`, name: `${prefix} ${stamp}` };
  const created = await page.request.post('/api/admin/users', { headers: { Origin: ORIGIN() }, data: { email: user.email, full_name: user.name, password: user.password } });
  expect(created.ok(), `creating ${user.email} answered ${created.status()}`);
  user.id = (await created.json()).id;
  return user;
}

/** Signs in through the sign-in page; stays there when a second factor is asked. */
export async function signInOnPage(page, user) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.locator('#password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

export function accountTests({ admin }) {
  const toast = (page, text) => page.locator('[data-sonner-toast]').getByText(text, { exact: true }).first();

  return [
    {
      name: 'account: an administrator re-enables a user; the user ends another browser’s session from Your Account',
      as: admin,
      async run(page) {
        const user = await newStaffUser(page, 'sessions');
        const disabled = await page.request.post(`/api/admin/users/${user.id}/disable`, { headers: { Origin: ORIGIN() } });
        expect(disabled.ok(), `disable answered ${disabled.status()}`);

        await page.goto('/admin');
        const row = page.getByRole('row').filter({ hasText: user.email });
        await row.getByText('Disabled', { exact: true }).waitFor();
        await row.getByRole('button', { name: 'Re-enable' }).click();
        // The row changes first; the toast may queue behind others a busy page shows.
        await row.getByText('Disabled', { exact: true }).waitFor({ state: 'detached' });
        await expectOnScreen(row.getByRole('button', { name: 'Disable' }), 'the Disable button of the re-enabled user');
        await expectOnScreen(toast(page, `${user.email} re-enabled`), 'the re-enabled toast', { timeout: 10_000 });

        // Another browser (a phone) signs in as the user.
        const phone = await request.newContext({ baseURL: process.env.CAREPATH_URL, extraHTTPHeaders: { Origin: ORIGIN(), 'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' } });
        try {
          const signedIn = await phone.post('/api/auth/sign-in', { data: { email: user.email, password: user.password } });
          expect(signedIn.ok(), `the phone's sign-in answered ${signedIn.status()}`);

          await page.context().clearCookies();
          await signInOnPage(page, user);
          await page.waitForURL((url) => !url.pathname.startsWith('/login'));
          await page.getByRole('link', { name: /Your account/ }).click();
          await page.waitForURL(/\/account$/);
          await page.getByRole('heading', { name: 'Active Sessions' }).waitFor();
          const here = page.getByRole('row').filter({ hasText: 'This device' });
          // Below the second factor's cards: a person scrolls down to the sessions.
          await here.scrollIntoViewIfNeeded();
          await expectOnScreen(here, 'this browser’s session');
          expect((await here.textContent()).includes('Chrome'), `this device is not named Chrome: ${await here.textContent()}`);
          const other = page.getByRole('row').filter({ hasText: 'Safari on iPhone' });
          await other.scrollIntoViewIfNeeded();
          await expectOnScreen(other, 'the phone’s session');
          expect((await other.textContent()).includes('127.0.0.1'), 'the phone’s address is not shown');
          await expectAccessible(page, 'Your Account');

          await other.getByRole('button', { name: 'End the session on Safari on iPhone' }).click();
          await expectOnScreen(toast(page, 'Session on Safari on iPhone ended'), 'the ended toast');
          await other.waitFor({ state: 'detached' });
          const after = await phone.get('/api/auth/me');
          expect(after.status() === 401, `the phone is still signed in: ${after.status()}`);

          // Ending this browser's own session signs out here.
          await here.getByRole('button', { name: 'End this session (sign out here)' }).click();
          await page.waitForURL(/\/login/);
        } finally {
          await phone.dispose();
        }
      },
    },
  ];
}
