// Browser test of an agency's first day: `carepath serve` on a database with no user
// prints a one-time setup link; opening it shows the setup page, and setting the agency
// up signs its first administrator in, whose dashboard lists what is still to set up.
// Starts its own server (CAREPATH_BIN, which scripts/browser-tests passes) on an empty
// database, beside the demo server the other tests use.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

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

/** Starts `carepath serve` on an empty database; answers the printed link and a stop. */
async function startFreshServer() {
  const dir = await mkdtemp(join(tmpdir(), 'carepath-first-run-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.env.CAREPATH_BIN, ['serve', '--db', join(dir, 'carepath.db'), '--addr', `127.0.0.1:${port}`, '--public-url', url], {
    env: { ...process.env, CAREPATH_DATA_DIR: join(dir, 'data'), CAREPATH_SMTP_URL: '', CAREPATH_SMS_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let console = '';
  const link = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no setup link within 20 s; the server said:\n${console}`)), 20_000);
    child.stderr.on('data', (chunk) => {
      console += chunk.toString();
      const found = /(http:\/\/\S+\/setup#token=[0-9a-f]+)/.exec(console);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server ended (${code}):\n${console}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    await rm(dir, { recursive: true, force: true });
  };
  return { url, link, stop, log: () => console };
}

export function firstRunTests() {
  return [
    {
      name: 'first run: the setup link opens the setup page; setting up signs the administrator in and the dashboard lists what is missing',
      skip: process.env.CAREPATH_BIN ? undefined : 'CAREPATH_BIN names no carepath binary (scripts/browser-tests sets it)',
      async run(page) {
        const server = await startFreshServer();
        try {
          expect(!/token=/.test(server.log().replace(server.link, '')), 'the token is printed once, in the link only');
          // Before setup the API answers nothing else.
          const before = await page.request.get(`${server.url}/api/intakes`);
          expect(before.status() === 409, `the API answered ${before.status()} before setup`);

          await page.goto(server.link);
          await expectOnScreen(page.getByRole('heading', { name: 'Set Up Your Agency' }), 'the setup page');
          expect(!page.url().includes('token='), 'the token left the address bar');
          const zone = await page.locator('#time_zone').inputValue();
          expect(zone !== '', 'a time zone is preselected');
          await expectAccessible(page, 'the setup page');

          await page.getByLabel('Agency Name').fill('Sunrise Home Care');
          await page.getByLabel('Address').fill('12 Elm Street, Springfield');
          await page.getByLabel('Phone').fill('(555) 010-2000');
          await page.getByLabel('Contact Email').fill('office@sunrise.test');
          await page.getByLabel('Your Name').fill('Olivia Owner');
          await page.getByLabel('Your Email').fill('olivia@sunrise.test');
          await page.getByLabel('Password').fill('first-day-secret');
          await page.getByRole('button', { name: 'Set Up Carepath' }).click();

          await page.waitForURL((url) => url.pathname === '/');
          const checklist = page.getByRole('heading', { name: 'Finish Setting Up' });
          await expectOnScreen(checklist, 'the setup checklist on the dashboard');
          await expectOnScreen(page.getByText('Email tested', { exact: true }), 'the missing mail test');
          await expectOnScreen(page.getByText('Public address on https', { exact: true }), 'the missing https address');
          // Done items are not listed: the phone and address were given at setup.
          expect((await page.getByText('Contact phone and address', { exact: true }).count()) === 0, 'the contact item is done');
          await expectAccessible(page, 'the dashboard with its checklist');

          // The link is used up: a second setup is refused.
          const again = await page.request.post(`${server.url}/api/setup`, {
            headers: { Origin: server.url },
            data: { token: server.link.split('#token=')[1], company_name: 'X', time_zone: 'UTC', admin_name: 'Y', admin_email: 'y@y.test', admin_password: 'another-secret' },
          });
          expect(again.status() === 403, `a replayed setup answered ${again.status()}`);
        } finally {
          // The page leaves first: open on a stopped server, it would log its next poll's refusal.
          await page.goto('about:blank');
          await server.stop();
        }
      },
    },
  ];
}
