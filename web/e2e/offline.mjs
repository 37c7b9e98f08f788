// Browser tests of the assessment in a client's home without a network: the app is
// installed by its service worker, the assessor's coming visit is kept on the device,
// the assessment is filled and saved offline, survives a reload, and reaches the server
// (and the client's timeline) when the network is back; an office edit made meanwhile is
// offered field by field; signing out erases what the device kept.
import { request } from 'playwright-core';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

const SAVED_ON_DEVICE = 'Saved on this device — will sync when online';
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

/** The offline database's record keys, read without creating the database. */
async function offlineRecordKeys(page) {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((database) => database.name);
    if (!names.includes('carepath-offline')) return null;
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open('carepath-offline');
      opening.onerror = () => reject(opening.error);
      opening.onsuccess = () => {
        const db = opening.result;
        const read = db.transaction('records').objectStore('records').getAllKeys();
        read.onsuccess = () => {
          db.close();
          resolve(read.result.map(String));
        };
        read.onerror = () => reject(read.error);
      };
    });
  });
}

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
      name: 'offline: the assessment is filled and saved with no network, survives a reload, and syncs to the server and timeline',
      as: staff,
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

        await page.context().setOffline(false);
        await expectOnScreen(page.getByText('Assessment Synced').first(), 'the synced toast');
        const saved = await until(async () => {
          const record = await json(await page.request.get(`/api/assessments/${client.assessmentId}`), 'the assessment');
          return record.form.additionalNotes === note ? record : null;
        }, 'the server to hold the offline note');
        expect(saved.form.hobbies === 'Chess and gardening', 'the hobbies did not reach the server');
        expect(saved.status === 'completed', `the assessment is ${saved.status}`);
        await page.getByText(SAVED_ON_DEVICE).waitFor({ state: 'detached' });
        const timeline = await json(await page.request.get(`/api/communications?intake_id=${client.intakeId}`), 'the timeline');
        expect(
          timeline.items.some((item) => `${item.subject ?? ''} ${item.content ?? ''}`.includes('Assessment completed')),
          'the timeline does not show the assessment completed',
        );
      },
    },
    {
      name: 'offline: an office edit made meanwhile is offered field by field and the choice is saved',
      as: staff,
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
        expect((await cachedApi()).length === 0, 'an API answer is in a cache');
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        await page.waitForURL(/\/login/);
        expect((await offlineRecordKeys(page)) === null, 'the offline database is still on the device');
        expect((await page.evaluate(() => sessionStorage.getItem('carepath.offline.key'))) === null, 'the key is still in the tab');
        expect((await cachedApi()).length === 0, 'an API answer is in a cache after sign-out');
      },
    },
  ];
}
