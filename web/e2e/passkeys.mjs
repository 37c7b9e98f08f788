// Browser test of passkeys with Chromium's virtual authenticator (DevTools protocol,
// WebAuthn domain): a user adds a passkey from Your Account, signs out, and signs in with
// the password and then the passkey, reaching the dashboard.
// WebAuthn needs a secure origin named by a domain, and the relying party id must be the
// host the browser uses: an IP address never is one. So this test starts its own server
// (CAREPATH_BIN, which scripts/browser-tests passes) on a small demo database, with the
// public address http://localhost:PORT, beside the demo server the other tests use.
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

const DEMO_ADMIN = { email: 'admin@carepath.test', password: 'carepath-demo' };

/** Scrolls `locator` into view as a person would, then checks they see it. */
async function seeOnScreen(locator, label) {
  await locator.waitFor();
  await locator.scrollIntoViewIfNeeded();
  await expectOnScreen(locator, label);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `carepath serve` on a fresh small demo database, its public address on localhost. */
async function startLocalhostServer() {
  const dir = await mkdtemp(join(tmpdir(), 'carepath-passkeys-'));
  const db = join(dir, 'carepath.db');
  await promisify(execFile)(process.env.CAREPATH_BIN, ['demo', '--db', db, '--clients', '3']);
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child = spawn(process.env.CAREPATH_BIN, ['serve', '--db', db, '--addr', `127.0.0.1:${port}`, '--public-url', url], {
    env: { ...process.env, CAREPATH_DATA_DIR: join(dir, 'data'), CAREPATH_SMTP_URL: '', CAREPATH_SMS_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk.toString()));
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    await rm(dir, { recursive: true, force: true });
  };
  for (let tries = 0; ; tries += 1) {
    const up = await fetch(`http://127.0.0.1:${port}/api/auth/me`).then(() => true, () => false);
    if (up) break;
    if (tries > 100 || child.exitCode !== null) {
      await stop();
      throw new Error(`the localhost server did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop };
}

export function passkeyTests() {
  return [
    {
      name: 'passkey: add one from Your Account with a virtual authenticator, then sign in with password and passkey',
      skip: process.env.CAREPATH_BIN ? undefined : 'CAREPATH_BIN names no carepath binary (scripts/browser-tests sets it)',
      async run(page) {
        const server = await startLocalhostServer();
        try {
          const cdp = await page.context().newCDPSession(page);
          await cdp.send('WebAuthn.enable');
          const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
            options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
          });

          const signIn = async () => {
            await page.goto(`${server.url}/login`);
            await page.getByLabel('Email').fill(DEMO_ADMIN.email);
            await page.locator('#password').fill(DEMO_ADMIN.password);
            await page.getByRole('button', { name: 'Sign In', exact: true }).click();
          };
          await signIn();
          await page.waitForURL((url) => !url.pathname.startsWith('/login'));
          await page.getByRole('link', { name: /Your account/ }).click();
          await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
          await seeOnScreen(page.getByText('No passkeys yet.'), 'the empty passkey list');

          await page.getByLabel('Passkey Name').fill('Work laptop');
          await page.getByRole('button', { name: 'Add a Passkey' }).click();
          // The first second factor comes with ten recovery codes, shown once.
          const codes = page.getByRole('list', { name: 'Recovery codes' });
          await seeOnScreen(codes, 'the recovery codes of the first passkey');
          expect((await codes.getByRole('listitem').count()) === 10, 'not ten recovery codes');
          await page.getByRole('button', { name: 'I Have Saved These Codes' }).click();
          const mine = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem').filter({ hasText: 'Work laptop' });
          await seeOnScreen(mine, 'the new passkey in the list');
          expect((await mine.textContent()).includes('Not used yet'), 'the new passkey claims a use');
          await expectAccessible(page, 'Your Account with a passkey');
          const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
          expect(credentials.length === 1, `the authenticator holds ${credentials.length} credentials`);
          expect(credentials[0].rpId === 'localhost', `the passkey's relying party is ${credentials[0].rpId}`);
          const countBefore = credentials[0].signCount;

          // The password alone no longer signs in: the passkey does.
          await page.getByRole('button', { name: 'Sign out', exact: true }).click();
          await page.waitForURL(/\/login/);
          await signIn();
          await expectOnScreen(page.getByText('Two-Step Verification'), 'the second-factor step');
          expect(page.url().includes('/login'), 'the password alone signed in');
          await expectAccessible(page, 'the second-factor step with a passkey button');
          await page.getByRole('button', { name: 'Use a Passkey' }).click();
          await page.waitForURL((url) => !url.pathname.startsWith('/login'));
          await expectOnScreen(page.getByRole('heading', { name: 'Outreach Dashboard' }), 'the dashboard after the passkey');

          // Its use is recorded, and the authenticator's counter moved.
          await page.getByRole('link', { name: /Your account/ }).click();
          const used = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem').filter({ hasText: 'Work laptop' });
          await seeOnScreen(used.getByText(/Last used/), 'the passkey’s last use');
          const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
          expect(after.credentials[0].signCount > countBefore, `the sign count stayed ${after.credentials[0].signCount}`);
        } finally {
          // The page leaves first: open on a stopped server, it would log its next poll's refusal.
          await page.goto('about:blank');
          await server.stop();
        }
      },
    },
  ];
}
