// Browser tests of the assessment in a client's home without a network: the app is
// installed by its service worker (and Chromium finds it installable), the assessor's
// coming visit is kept on the device, the assessment is filled and saved offline (on a
// phone and on a tablet), survives a reload and a closed tab, and reaches the server (and
// the client's timeline) when the network is back, its care plan asked for offline
// generated then; an office edit made meanwhile is offered field by field; signing out
// erases what the device kept; a tab opened anew without a network opens the visits with
// the password of the last sign-in; a new build waits for the user's reload.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, request } from 'playwright-core';
import { CHROMIUM_ARGS, expect, expectAccessible, expectOnScreen } from './harness.mjs';

const SAVED_ON_DEVICE = 'Saved on this device — will sync when online';
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 820, height: 1180 };
// Offline, the browser logs each request it could not send.
const OFFLINE_CONSOLE = [/ERR_INTERNET_DISCONNECTED/, /net::ERR_/];

async function json(response, what) {
  expect(response.ok(), `${what} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/** YYYY-MM-DD of the browser's today plus `days`. */
async function dayFromToday(page, days) {
  return page.evaluate((offset) => {
    const date = new Date();
    date.setDate(date.getDate() + offset);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  }, days);
}

/** A client with a draft assessment and a visit tomorrow for the signed-in user. */
async function assignedClient(page, label) {
  const headers = { Origin: new URL(process.env.CAREPATH_URL).origin };
  const me = await json(await page.request.get('/api/auth/me'), 'me');
  const name = `${label} ${Date.now()}`;
  const intake = await json(
    await page.request.post('/api/intakes', {
      headers,
      data: { form: { staffMemberTakingCall: 'Coordinator', callerName: 'Grace Hopper', callerPhone: '(217) 555-0100', clientFullName: name, clientAddress: '12 Oak St', city: 'Springfield', state: 'IL', zipCode: '62701' } },
    }),
    'the intake',
  );
  const form = await json(await page.request.get(`/api/assessments/prefill?intake_id=${intake.id}`), 'the prefill');
  Object.assign(form, { clientName: name, phone: '(217) 555-0100', coordinatorName: 'Sam Staff', recommendedServices: ['Companionship'], recommendedHours: 6, preferredDays: ['Monday'] });
  const assessment = await json(await page.request.post('/api/assessments/draft', { headers, data: { intake_id: intake.id, form } }), 'the draft assessment');
  await json(
    await page.request.post(`/api/intakes/${intake.id}/visits`, {
      headers,
      data: { assessor_id: me.id, date: await dayFromToday(page, 1), start_time: '10:00', duration_minutes: 60, place: '12 Oak St, Springfield' },
    }),
    'the visit',
  );
  return { name, intakeId: intake.id, assessmentId: assessment.id };
}

/**
 * One store of the offline database, read in the page without creating the database (null
 * when there is none): the records' keys, the drafts (their sealed bytes as text) or the
 * key records as the device keeps them (wrapped keys only, described by their sizes).
 */
async function readOffline(page, store) {
  return page.evaluate(async (store) => {
    const names = (await indexedDB.databases()).map((database) => database.name);
    if (!names.includes('carepath-offline')) return null;
    const plain = {
      records: (keys) => keys.map(String),
      drafts: (rows) => rows.map((row) => ({ target: row.target, text: new TextDecoder().decode(row.sealed.data) })),
      keys: (rows) =>
        rows.map((row) => ({
          userId: row.userId,
          userName: row.userName,
          password: row.password ? { iterations: row.password.iterations, saltBytes: row.password.salt.byteLength, wrappedBytes: row.password.wrapped.byteLength } : null,
        })),
    }[store];
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open('carepath-offline');
      opening.onerror = () => reject(opening.error);
      opening.onsuccess = () => {
        const db = opening.result;
        const objects = db.transaction(store).objectStore(store);
        const read = store === 'records' ? objects.getAllKeys() : objects.getAll();
        read.onsuccess = () => {
          db.close();
          resolve(plain(read.result));
        };
        read.onerror = () => reject(read.error);
      };
    });
  }, store);
}

const offlineRecordKeys = (page) => readOffline(page, 'records');
const offlineDrafts = (page) => readOffline(page, 'drafts');
const offlineKeys = async (page) => (await readOffline(page, 'keys')) ?? [];

/** Opens the app, lets its service worker take over, and waits for the visit's copy. */
async function installAndCopy(page, assessmentId) {
  await page.goto('/');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const keys = (await offlineRecordKeys(page)) ?? [];
    if (keys.some((key) => key.endsWith(`/api/assessments/${assessmentId}`))) return keys;
    if (Date.now() > deadline) throw new Error(`the device kept no copy of the assessment: ${keys.join(', ')}`);
    await page.waitForTimeout(250);
  }
}

/**
 * Waits, on the worker's own events, until the page is controlled by its registration's
 * active worker, that worker is activated, and no other worker is installing or waiting.
 */
async function controlledByActiveWorker(page, what) {
  const state = await page.evaluate(
    (seconds) =>
      new Promise((resolve) => {
        const describe = (registration) =>
          `controller ${navigator.serviceWorker.controller?.state ?? 'none'}, active ${registration?.active?.state ?? 'none'}, ` +
          `waiting ${registration?.waiting ? 'yes' : 'no'}, installing ${registration?.installing ? 'yes' : 'no'}`;
        let registration;
        const check = () => {
          const controller = navigator.serviceWorker.controller;
          if (registration && controller && controller === registration.active && registration.active.state === 'activated' && !registration.waiting && !registration.installing) {
            resolve({ ok: true });
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => resolve({ ok: false, seen: describe(registration) }), seconds * 1000);
        const watch = (worker) => worker?.addEventListener('statechange', () => check() && clearTimeout(timer));
        void navigator.serviceWorker.ready.then((ready) => {
          registration = ready;
          for (const worker of [ready.installing, ready.waiting, ready.active]) watch(worker);
          ready.addEventListener('updatefound', () => watch(ready.installing));
          navigator.serviceWorker.addEventListener('controllerchange', () => check() && clearTimeout(timer));
          if (check()) clearTimeout(timer);
        });
      }),
    30,
  );
  if (!state.ok) throw new Error(`${what}: the page is not controlled by the active worker (${state.seen})`);
}

/**
 * A loopback proxy in front of the server, standing in for it being upgraded while a tab
 * is open: `nextWorker` is the worker script it then serves, and with `oldFilesGone` it
 * answers 404 for the build's files (counted in `assetsRefused`).
 */
async function buildSwitchingProxy(target) {
  const upstream = new URL(target);
  const state = { url: '', nextWorker: null, oldFilesGone: false, assetsRefused: 0, close: () => Promise.resolve() };
  const proxy = http.createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    if (path.startsWith('/sw.js') && state.nextWorker) {
      outgoing.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-cache' });
      outgoing.end(state.nextWorker);
      incoming.resume();
      return;
    }
    if (path.startsWith('/assets/') && state.oldFilesGone) {
      state.assetsRefused += 1;
      outgoing.writeHead(404).end();
      incoming.resume();
      return;
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: incoming.method, path, headers: { ...incoming.headers, host: upstream.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  const sockets = new Set();
  proxy.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${proxy.address().port}`;
  state.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      proxy.close(() => resolve());
    });
  return state;
}

async function until(check, what, seconds = 15) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function offlineTests({ staff }) {
  return [
    {
      name: 'offline: on a phone the assessment is filled and saved with no network, survives a reload and a closed tab, and syncs to the server and timeline',
      as: staff,
      viewport: PHONE,
      allowConsole: OFFLINE_CONSOLE,
      async run(page) {
        const client = await assignedClient(page, 'Offline Client');
        const kept = await installAndCopy(page, client.assessmentId);
        expect(kept.some((key) => key.endsWith(`/api/clients/${client.intakeId}`)), 'the client profile is not kept');
        expect(kept.some((key) => key.endsWith(`/api/intakes/${client.intakeId}/contacts`)), 'the contacts are not kept');
        // What the device keeps is sealed: the client's name is in no stored value.
        const plain = await page.evaluate(
          (name) =>
            new Promise((resolve) => {
              const opening = indexedDB.open('carepath-offline');
              opening.onsuccess = () => {
                const db = opening.result;
                const read = db.transaction('records').objectStore('records').getAll();
                read.onsuccess = () => {
                  db.close();
                  resolve(read.result.some((row) => new TextDecoder().decode(row.sealed.data).includes(name)));
                };
              };
            }),
          client.name,
        );
        expect(!plain, 'the client name is stored in plain text');

        await page.context().setOffline(true);
        await page.goto(`/assessments/new?assessment_id=${client.assessmentId}`);
        await page.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor();
        expect((await page.getByLabel('Client Name').inputValue()) === client.name, 'the kept assessment did not open');
        const note = `Written at the kitchen table ${Date.now()}`;
        await page.getByLabel('Additional Notes').fill(note);
        await page.getByLabel('Hobbies & Interests').fill('Chess and gardening');
        await page.getByRole('button', { name: 'Update Assessment' }).click();
        await expectOnScreen(page.getByText(SAVED_ON_DEVICE), 'the saved-on-device notice');

        await page.reload();
        await page.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor();
        await expectOnScreen(page.getByText(SAVED_ON_DEVICE), 'the saved-on-device notice after a reload');
        await until(async () => (await page.getByLabel('Additional Notes').inputValue()) === note, 'the note after the reload');
        expect((await page.getByLabel('Hobbies & Interests').inputValue()) === 'Chess and gardening', 'the hobbies were lost on reload');
        await expectAccessible(page, 'the assessment offline');

        // The tab is closed and opened again, still without a network: the worker serves
        // the app, the draft stays on the device (sealed), and nothing asks to sign in.
        const tab = await page.context().newPage();
        await page.close();
        await tab.goto(`/assessments/new?assessment_id=${client.assessmentId}`);
        await expectOnScreen(tab.getByRole('heading', { name: 'No network' }), 'the no-network notice in the reopened tab');
        // The app never saw this session's password (it was signed in through the API): it
        // says why the visits stay closed, and what to do next time.
        await expectOnScreen(tab.getByText('Sign in with your password before you leave to open visits without a network.'), 'why the visits stay closed');
        expect((await tab.getByLabel('Password').count()) === 0, 'a password prompt that could open nothing');
        expect(!tab.url().includes('/login'), `the reopened tab went to ${tab.url()}`);
        const waiting = await offlineDrafts(tab);
        expect(waiting?.length === 1 && waiting[0].target === client.assessmentId, `the device holds ${JSON.stringify(waiting?.map((draft) => draft.target))}`);
        expect(!waiting[0].text.includes('kitchen table'), 'the draft is stored in plain text');

        await tab.context().setOffline(false);
        await tab.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor();
        await expectOnScreen(tab.getByRole('status').filter({ hasText: 'Status: Completed' }), 'the synced status');
        const saved = await until(async () => {
          const record = await json(await tab.request.get(`/api/assessments/${client.assessmentId}`), 'the assessment');
          return record.form.additionalNotes === note ? record : null;
        }, 'the server to hold the offline note');
        expect(saved.form.hobbies === 'Chess and gardening', 'the hobbies did not reach the server');
        expect(saved.status === 'completed', `the assessment is ${saved.status}`);
        await tab.getByText(SAVED_ON_DEVICE).waitFor({ state: 'detached' });
        expect((await offlineDrafts(tab))?.length === 0, 'the sent draft is still on the device');
        const timeline = await json(await tab.request.get(`/api/communications?intake_id=${client.intakeId}`), 'the timeline');
        expect(
          timeline.items.some((item) => `${item.subject ?? ''} ${item.content ?? ''}`.includes('Assessment completed')),
          'the timeline does not show the assessment completed',
        );
        await tab.goto(`/clients/${client.intakeId}`);
        await tab.getByRole('tab', { name: 'Communications' }).click();
        // On a phone the timeline starts at the fold (below the client's header and tabs),
        // how far down depending on what else the client has: the assessor scrolls to it.
        const completed = tab.getByRole('tabpanel').getByText('Assessment completed').first();
        await completed.scrollIntoViewIfNeeded();
        await expectOnScreen(completed, "the client's timeline on a phone");
      },
    },
    {
      name: 'offline: a tab opened anew without a network opens the visits with the password of the last sign-in, and the change syncs when the network is back',
      viewport: PHONE,
      allowConsole: OFFLINE_CONSOLE,
      async run(page) {
        // Signed in through the page with a password, as an assessor does before leaving.
        await page.goto('/login');
        await page.getByLabel('Email').fill(staff.email);
        await page.locator('#password').fill(staff.password);
        await page.getByRole('button', { name: 'Sign In', exact: true }).click();
        await page.waitForURL((url) => !url.pathname.startsWith('/login'));
        const me = await json(await page.request.get('/api/auth/me'), 'me');
        // The copy taken after the sign-in wraps the device key by that password too.
        const [key] = await until(async () => {
          const keys = await offlineKeys(page);
          return keys.some((row) => row.password) ? keys : null;
        }, 'the key wrapped by the password');
        expect(key.userId === me.id && key.userName === (me.full_name || me.email), `the key is kept for ${JSON.stringify(key)}`);
        expect(key.password.iterations >= 600_000 && key.password.saltBytes === 16, `the password wrap: ${JSON.stringify(key.password)}`);
        const client = await assignedClient(page, 'Password Client');
        await installAndCopy(page, client.assessmentId);
        expect((await offlineKeys(page)).every((row) => row.password), 'a later copy dropped the password wrap');

        // The app is closed; at the client's home there is no signal.
        const context = page.context();
        await page.close();
        await context.setOffline(true);
        const tab = await context.newPage();
        tab.setDefaultTimeout(10_000);
        await tab.goto(`/assessments/new?assessment_id=${client.assessmentId}`);
        const password = tab.getByLabel('Password');
        await expectOnScreen(password, 'the password field');
        await expectOnScreen(tab.getByText("Enter your password to open this device's visits."), 'the password prompt');
        await expectOnScreen(tab.getByText(`Signed in as ${me.full_name || me.email}`), "the signed-in user's name");
        await expectOnScreen(tab.getByRole('button', { name: 'Open Visits' }), 'the open button');
        expect((await password.getAttribute('autocomplete')) === 'current-password', 'the password field is not marked as the current password');
        expect(!tab.url().includes('/login'), `the reopened tab went to ${tab.url()}`);
        await expectAccessible(tab, 'the password prompt offline');

        await password.fill(`${staff.password}-wrong`);
        await tab.getByRole('button', { name: 'Open Visits' }).click();
        await expectOnScreen(tab.getByRole('alert').filter({ hasText: "That password does not open this device's visits." }), 'the wrong-password message');
        expect((await tab.getByRole('heading', { name: 'Non-Medical Assessment Form' }).count()) === 0, 'a wrong password opened the visit');
        await expectAccessible(tab, 'the wrong-password message');

        await password.fill(staff.password);
        await tab.getByRole('button', { name: 'Open Visits' }).click();
        await tab.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor({ timeout: 20_000 });
        await until(async () => (await tab.getByLabel('Client Name').inputValue()) === client.name, 'the kept assessment');
        const note = `Written with no signal ${Date.now()}`;
        await tab.getByLabel('Additional Notes').fill(note);
        await tab.getByRole('button', { name: 'Update Assessment' }).click();
        await expectOnScreen(tab.getByText(SAVED_ON_DEVICE), 'the saved-on-device notice');
        const waiting = await offlineDrafts(tab);
        expect(waiting?.length === 1 && !waiting[0].text.includes('no signal'), 'the draft is not kept sealed on the device');

        // Back online, the session is checked and the draft reaches the server.
        await context.setOffline(false);
        const saved = await until(async () => {
          const record = await json(await tab.request.get(`/api/assessments/${client.assessmentId}`), 'the assessment');
          return record.form.additionalNotes === note ? record : null;
        }, 'the server to hold the offline note');
        expect(saved.status === 'completed', `the assessment is ${saved.status}`);
        await tab.getByText(SAVED_ON_DEVICE).waitFor({ state: 'detached' });
        const timeline = await json(await tab.request.get(`/api/communications?intake_id=${client.intakeId}`), 'the timeline');
        expect(
          timeline.items.some((item) => `${item.subject ?? ''} ${item.content ?? ''}`.includes('Assessment completed')),
          'the timeline does not show the assessment completed',
        );
      },
    },
    {
      name: 'offline: on a tablet an office edit made meanwhile is offered field by field and the choice is saved',
      as: staff,
      viewport: TABLET,
      allowConsole: OFFLINE_CONSOLE,
      async run(page) {
        const client = await assignedClient(page, 'Conflict Client');
        await installAndCopy(page, client.assessmentId);
        await page.context().setOffline(true);
        await page.goto(`/assessments/new?assessment_id=${client.assessmentId}`);
        await page.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor();
        await page.getByLabel('Additional Notes').fill('Device note');
        await page.getByLabel('Hobbies & Interests').fill('Device hobbies');
        await page.getByRole('button', { name: 'Save as Draft' }).or(page.getByRole('button', { name: 'Update Assessment' })).first().click();
        await expectOnScreen(page.getByText(SAVED_ON_DEVICE), 'the saved-on-device notice');

        // Meanwhile the office changes the same assessment.
        const office = await request.newContext({ baseURL: process.env.CAREPATH_URL, storageState: await page.context().storageState(), extraHTTPHeaders: { Origin: new URL(process.env.CAREPATH_URL).origin } });
        try {
          const current = await json(await office.get(`/api/assessments/${client.assessmentId}`), 'the assessment');
          await json(await office.put(`/api/assessments/${client.assessmentId}/draft`, { data: { version: current.version, form: { ...current.form, additionalNotes: 'Office note' } } }), 'the office edit');
        } finally {
          await office.dispose();
        }

        await page.context().setOffline(false);
        const chooser = page.getByRole('region', { name: 'This assessment was changed on the server while you were offline' });
        await expectOnScreen(chooser.getByRole('heading'), 'the field-by-field choice');
        // The assessor scrolls to the chooser's button; it must then fit a tablet's screen.
        await chooser.getByRole('button', { name: 'Keep These Versions' }).scrollIntoViewIfNeeded();
        await expectOnScreen(chooser.getByRole('button', { name: 'Keep These Versions' }), 'the choice button on a tablet');
        const notes = chooser.getByRole('group', { name: 'Additional notes' });
        await notes.getByText('This device: Device note').waitFor();
        await notes.getByText('Server: Office note').waitFor();
        await notes.getByRole('radio').nth(1).check();
        await chooser.getByRole('group', { name: 'Hobbies' }).getByText('Server: (empty)').waitFor();
        await expectAccessible(page, 'the field-by-field choice');
        await chooser.getByRole('button', { name: 'Keep These Versions' }).click();

        const saved = await until(async () => {
          const record = await json(await page.request.get(`/api/assessments/${client.assessmentId}`), 'the assessment');
          return record.form.hobbies === 'Device hobbies' ? record : null;
        }, 'the chosen versions on the server');
        expect(saved.form.additionalNotes === 'Office note', `the office note was overwritten: ${saved.form.additionalNotes}`);
        await chooser.waitFor({ state: 'detached' });
      },
    },
    {
      name: 'offline: signing out erases the offline database and keeps no API answer in any cache',
      async run(page) {
        // A session of its own: signing out ends it, and the other tests share theirs.
        await page.goto('/login');
        await page.getByLabel('Email').fill(staff.email);
        await page.locator('#password').fill(staff.password);
        await page.getByRole('button', { name: 'Sign In', exact: true }).click();
        await page.waitForURL((url) => !url.pathname.startsWith('/login'));
        const client = await assignedClient(page, 'Sign-out Client');
        await installAndCopy(page, client.assessmentId);
        const cachedApi = () =>
          page.evaluate(async () => {
            const found = [];
            for (const name of await caches.keys()) {
              for (const entry of await (await caches.open(name)).keys()) if (new URL(entry.url).pathname.startsWith('/api/')) found.push(entry.url);
            }
            return found;
          });
        expect((await page.evaluate(() => caches.keys())).length > 0, 'the service worker cached no app files');
        expect((await cachedApi()).length === 0, 'the service worker cached an API answer');
        expect((await offlineDrafts(page)) !== null, 'there was no offline database to erase');
        // An API answer some cache holds (an older build's, a browser extension's) goes too.
        await page.evaluate(async () => (await caches.open('carepath-probe')).put('/api/auth/me', new Response('{"email":"kept"}')));
        expect((await cachedApi()).length === 1, 'the planted answer is not in its cache');
        const appFiles = await page.evaluate(async () => {
          let count = 0;
          for (const name of await caches.keys()) count += (await (await caches.open(name)).keys()).length;
          return count;
        });
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        await page.waitForURL(/\/login/);
        expect((await offlineRecordKeys(page)) === null, 'the offline database is still on the device');
        expect((await page.evaluate(() => sessionStorage.getItem('carepath.offline.key'))) === null, 'the key is still in the tab');
        expect((await cachedApi()).length === 0, 'an API answer is in a cache after sign-out');
        // The app's own files stay: they hold no records, and the sign-in page needs them offline.
        const filesLeft = await page.evaluate(async () => {
          let count = 0;
          for (const name of await caches.keys()) count += (await (await caches.open(name)).keys()).length;
          return count;
        });
        expect(filesLeft === appFiles - 1, `the caches held ${appFiles} entries with the planted one and ${filesLeft} after sign-out`);
      },
    },
    {
      name: 'offline: an assessment completed offline with its care plan asked for gets the plan generated on sync',
      as: staff,
      viewport: TABLET,
      allowConsole: OFFLINE_CONSOLE,
      async run(page) {
        const client = await assignedClient(page, 'Care Plan Client');
        await installAndCopy(page, client.assessmentId);
        await page.context().setOffline(true);
        await page.goto(`/assessments/new?assessment_id=${client.assessmentId}`);
        await page.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor();
        await page.getByLabel('Additional Notes').fill('Completed in the living room');
        await page.getByRole('button', { name: 'Update Assessment' }).click();
        await expectOnScreen(page.getByText(SAVED_ON_DEVICE), 'the saved-on-device notice');
        await page.getByRole('button', { name: 'Generate Care Plan' }).click();
        await expectOnScreen(page.getByText('The care plan will be generated once it has synced.'), 'the care plan promise');
        // Nothing reached the server while offline.
        const before = await json(await page.request.get(`/api/assessments/${client.assessmentId}`), 'the assessment');
        expect(before.care_plan_id === null, 'a care plan exists before the sync');

        await page.context().setOffline(false);
        await expectOnScreen(page.locator('[data-sonner-toast]').getByText('Care Plan Created', { exact: true }).first(), 'the care plan toast');
        const synced = await until(async () => {
          const record = await json(await page.request.get(`/api/assessments/${client.assessmentId}`), 'the assessment');
          return record.care_plan_id ? record : null;
        }, 'the care plan on the server');
        expect(synced.status === 'completed', `the assessment is ${synced.status}`);
        expect(synced.form.additionalNotes === 'Completed in the living room', 'the plan was drawn before the offline edit arrived');
        const plan = await json(await page.request.get(`/api/care-plans/${synced.care_plan_id}`), 'the care plan');
        expect(plan.assessment_id === client.assessmentId, 'the care plan belongs to another assessment');
        await expectOnScreen(page.getByRole('button', { name: 'View Care Plan' }), 'the View Care Plan button');
      },
    },
    {
      name: 'offline: a new build served while a tab is open waits for the reload, and the open tab keeps its own build',
      as: staff,
      async run(page) {
        // The server the tab talks to, through a proxy that can serve the next build's
        // worker and forget this build's files, as an upgraded server would.
        const server = await buildSwitchingProxy(process.env.CAREPATH_URL);
        try {
          await page.goto(`${server.url}/`);
          await page.waitForURL((url) => !url.pathname.startsWith('/login'));
          await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
          await page.reload();
          await controlledByActiveWorker(page, 'the first build');
          // Which build a worker is: only the next build's worker answers the question. The
          // page is asked once its worker is settled (controlledByActiveWorker), so the
          // silence of this build's worker is its answer, not a slow start.
          const build = () =>
            page.evaluate(
              () =>
                new Promise((resolve) => {
                  const worker = navigator.serviceWorker.controller;
                  if (!worker) return resolve(null);
                  const channel = new MessageChannel();
                  channel.port1.onmessage = (event) => resolve(event.data);
                  worker.postMessage('which build?', [channel.port2]);
                  setTimeout(() => resolve('this build'), 5000);
                }),
            );
          const waiting = () => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting));

          // The next build's worker differs, and says which build it is.
          const current = await (await page.request.get(`${server.url}/sw.js`)).text();
          server.nextWorker = `${current}\nself.addEventListener('message', (event) => { if (event.data === 'which build?') event.ports[0].postMessage('next'); });\n`;
          // The browser finds it and installs it; it then waits, by the worker's own states.
          await page.evaluate(async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            if (!registration) throw new Error('the page has no service worker registration');
            const found = new Promise((resolve) => registration.addEventListener('updatefound', () => resolve(registration.installing), { once: true }));
            await registration.update();
            const worker = registration.installing ?? registration.waiting ?? (await found);
            if (!worker) throw new Error('the update found no new worker');
            await new Promise((resolve, reject) => {
              const settled = () => {
                if (worker.state === 'installed' && registration.waiting === worker) resolve(undefined);
                else if (worker.state === 'redundant') reject(new Error('the next build\'s worker failed to install'));
                else if (worker.state === 'activating' || worker.state === 'activated') reject(new Error('the next build\'s worker took over without waiting'));
              };
              worker.addEventListener('statechange', settled);
              settled();
            });
          });
          await expectOnScreen(page.getByText('A new version is available'), 'the new version notice', { timeout: 10_000 });
          expect((await build()) === 'this build', 'the new build took over the open tab before its reload');
          expect(await waiting(), 'the new worker is not waiting');

          // This build's files are gone from the server; the open tab still opens its other
          // screens (chunks it never loaded), from its own build's files.
          server.oldFilesGone = true;
          await page.getByRole('link', { name: 'Settings' }).first().click();
          await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
          expect(server.assetsRefused === 0, `the open tab asked the server for ${server.assetsRefused} file(s) of its build`);
          await expectOnScreen(page.getByText('A new version is available'), 'the notice after moving on');

          // The reload the notice makes is the page's own navigation: wait for it, then for
          // the worker that controls the reloaded page to be the registration's active one.
          const reloaded = page.waitForEvent('load', { timeout: 30_000 });
          await page.getByRole('button', { name: 'Reload' }).click();
          await reloaded;
          await controlledByActiveWorker(page, 'the reloaded page');
          expect((await build()) === 'next', 'the reloaded page is not controlled by the new build');
          expect(!(await waiting()), 'a worker still waits after the reload');
          await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
          await page.getByText('A new version is available').waitFor({ state: 'detached' });
          expect(server.assetsRefused === 0, `the reloaded page asked the server for ${server.assetsRefused} file(s) of the old build`);
        } finally {
          await server.close();
        }
      },
    },
    {
      name: 'offline: the app is installable, and its worker serves the app without a network',
      as: staff,
      async run(page) {
        const manifest = await json(await page.request.get('/manifest.webmanifest'), 'the manifest');
        expect(manifest.display === 'standalone', `the manifest's display is ${manifest.display}`);
        expect(manifest.start_url, 'the manifest has no start_url');
        for (const size of ['192x192', '512x512']) expect(manifest.icons.some((icon) => icon.sizes === size), `no ${size} icon in the manifest`);

        // Chromium never offers to install from an incognito window (every test context is
        // one): this check runs in a profile of its own, signed in as the test's user.
        const profile = await mkdtemp(join(tmpdir(), 'carepath-install-'));
        const browser = await chromium.launchPersistentContext(profile, {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: CHROMIUM_ARGS,
          headless: true,
          baseURL: process.env.CAREPATH_URL,
          viewport: { width: 1280, height: 800 },
        });
        try {
          await browser.addCookies(await page.context().cookies());
          const tab = browser.pages()[0] ?? (await browser.newPage());
          tab.setDefaultTimeout(10_000);
          await tab.goto('/');
          await tab.waitForURL((url) => !url.pathname.startsWith('/login'));
          await tab.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
          await tab.reload();
          await tab.waitForFunction(() => navigator.serviceWorker.controller !== null);
          // Chromium's own verdict, as its install prompt decides it.
          const devtools = await browser.newCDPSession(tab);
          const { installabilityErrors } = await devtools.send('Page.getInstallabilityErrors');
          expect(installabilityErrors.length === 0, `not installable: ${JSON.stringify(installabilityErrors)}`);
          const { url, errors } = await devtools.send('Page.getAppManifest');
          expect(new URL(url).pathname === '/manifest.webmanifest' && errors.length === 0, `the page's manifest ${url}: ${JSON.stringify(errors)}`);

          // Offline the app opens for the signed-in user from the copy (it names the user).
          await until(async () => ((await offlineRecordKeys(tab)) ?? []).some((key) => key.endsWith('/api/auth/me')), 'the offline copy');
          await browser.setOffline(true);
          for (const path of ['/', '/settings', '/assessments']) {
            const answer = await tab.goto(path);
            expect(answer?.fromServiceWorker(), `${path} did not come from the service worker offline`);
            await expectOnScreen(tab.getByRole('navigation').first(), `the app's navigation at ${path} offline`);
          }
          await browser.setOffline(false);
        } finally {
          await browser.close();
          await rm(profile, { recursive: true, force: true });
        }
      },
    },
  ];
}
