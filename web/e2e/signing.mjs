// The family's side of issue 16, as the family would do it: open the emailed link from
// the newest outbox .eml, approve the proposal, open the contract link on a phone-size
// screen, draw a signature with the mouse and submit, while a staff page open beside it
// sees the client become an Active Patient without reloading.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, expectAccessible } from './harness.mjs';

/** The outbox folder of the server under test (scripts/browser-tests passes it). A
 * message with a personal link sits in its private folder, where only its recipient's
 * copy is: the family reads it as the family would. */
function outboxDir() {
  const dataDir = process.env.CAREPATH_DATA_DIR;
  if (!dataDir) throw new Error('CAREPATH_DATA_DIR names the server data folder (its outbox is read)');
  return join(dataDir, 'outbox', 'private');
}

/** The personal link (`/approve/…` or `/sign/…`) in the newest .eml that has one. */
export async function newestLink(kind, after) {
  const dir = outboxDir();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const names = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.eml'));
    const files = await Promise.all(names.map(async (name) => ({ name, mtime: (await stat(join(dir, name))).mtimeMs })));
    files.sort((a, b) => b.mtime - a.mtime);
    for (const file of files) {
      if (file.mtime < after) break;
      // Undo quoted-printable soft line breaks before reading the address.
      const text = (await readFile(join(dir, file.name), 'utf8')).replace(/=\r?\n/g, '');
      const match = text.match(new RegExp(`/${kind}/([A-Za-z0-9_-]{43})`));
      if (match) return `/${kind}/${match[1]}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${kind} link in the outbox`);
}

async function json(response, what) {
  expect(response.ok(), `${what} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/** A 48 x 16 blue PNG. */
const LOGO_PNG = 'iVBORw0KGgoAAAANSUhEUgAAADAAAAAQCAIAAADfzGvmAAAAJElEQVR42mMQiVo1qBDDqINGHTTqoFEHjTpo1EGjDhp1EH0RAGYDSC7X13R4AAAAAElFTkSuQmCC';

export function signingTests({ admin, staff }) {
  return [
    {
      name: 'the family approves the proposal and signs the contract from the emailed links',
      as: staff,
      async run(page) {
        const baseURL = process.env.CAREPATH_URL;
        // A draft proposal of the demo agency, sent by the coordinator.
        const plans = await json(await page.request.get('/api/care-plans?status=draft&limit=50'), 'care plans');
        // The contract goes to the plan's family contact: a plan that names one.
        const plan = plans.items.find((item) => item.intake_id && item.family_contact_email);
        expect(plan, 'the demo has a draft care plan with a client and a family email');
        let sentAt = Date.now() - 1000;
        await json(
          await page.request.post(`/api/care-plans/${plan.id}/send`, { data: { to: 'family@example.test', body: `Dear family, here is the proposal for ${plan.client_name}.`, version: plan.version } }),
          'sending the proposal',
        );
        const approveLink = await newestLink('approve', sentAt);

        // The staff page beside the family's: the client's profile.
        await page.goto(`/clients/${plan.intake_id}`);
        await page.getByRole('heading', { name: plan.client_name, exact: true }).waitFor();

        const family = await page.context().browser().newContext({ baseURL, viewport: { width: 390, height: 844 } });
        try {
          const phone = await family.newPage();
          phone.setDefaultTimeout(10_000);
          await phone.goto(approveLink);
          await phone.getByRole('heading', { name: 'Your Home Care Proposal' }).waitFor();
          await phone.getByText(plan.client_name).first().waitFor();
          await expectAccessible(phone, 'proposal approval page');
          await phone.getByLabel('Your full name').fill('Jane Family');
          await phone.getByRole('button', { name: 'Approve this proposal' }).click();
          await phone.getByText('Your approval has been recorded').waitFor();
          expect((await family.cookies()).length === 0, 'the family pages set no session');
          // The family's page keeps itself for the next visit with a worker of its own,
          // for the link's path only; the staff app's worker is never installed.
          const scope = await phone.evaluate(() => navigator.serviceWorker.ready.then((registration) => registration.scope));
          expect(scope === `${baseURL}/approve/`, `the family's worker is scoped to ${scope}`);
          // Single use: the same link now says what was done, and when.
          await phone.goto(approveLink);
          await phone.getByRole('heading', { name: 'Proposal approved' }).waitFor();
          const workers = await phone.evaluate(async () => ({
            controller: navigator.serviceWorker.controller?.scriptURL ?? null,
            all: (await navigator.serviceWorker.getRegistrations()).map((registration) => registration.active?.scriptURL ?? ''),
          }));
          expect(workers.controller === `${baseURL}/family-sw.js`, `the repeat visit was answered by ${workers.controller}`);
          expect(workers.all.every((url) => url === `${baseURL}/family-sw.js`), `the family's phone has the workers ${workers.all.join(', ')}`);
          await phone.getByText(/You approved this care plan proposal on [A-Z][a-z]+ \d{1,2}, \d{4}/).waitFor();
          await page.getByText('Care Plan Approved').first().waitFor();

          // The contract, generated and sent for signature by the coordinator.
          const preview = await json(await page.request.get(`/api/contracts/preview?care_plan_id=${plan.id}`), 'contract preview');
          const contract = await json(await page.request.post('/api/contracts', { data: { care_plan_id: plan.id, care_plan_version: preview.care_plan_version, content: preview.content } }), 'contract');
          sentAt = Date.now() - 1000;
          await json(await page.request.post(`/api/contracts/${contract.id}/send`, { data: { body: 'Please sign the agreement.', version: contract.version } }), 'sending the contract');
          const signLink = await newestLink('sign', sentAt);

          await phone.goto(signLink);
          await phone.getByRole('heading', { name: 'Home Care Service Agreement' }).waitFor();
          await phone.getByTestId('contract-text').waitFor();
          await expectAccessible(phone, 'contract signing page');
          await phone.getByLabel('Your full name').fill('Jane Family');
          await phone.getByLabel('Relationship to the client').fill('Daughter');
          await phone.getByLabel(/I agree to sign this agreement electronically/).check();
          const pad = phone.getByTestId('signature-pad');
          await pad.scrollIntoViewIfNeeded();
          const box = await pad.boundingBox();
          expect(box, 'the signature pad is on screen');
          await phone.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6);
          await phone.mouse.down();
          for (const [x, y] of [
            [0.25, 0.3],
            [0.4, 0.7],
            [0.55, 0.35],
            [0.8, 0.6],
          ]) {
            await phone.mouse.move(box.x + box.width * x, box.y + box.height * y, { steps: 4 });
          }
          await phone.mouse.up();
          await phone.getByRole('button', { name: 'Sign the agreement' }).click();
          await phone.getByText('The agreement is signed.').waitFor();
          // Reopened, the link shows the signing and offers the signed agreement.
          await phone.goto(signLink);
          await phone.getByRole('heading', { name: 'Agreement signed' }).waitFor();
          const download = phone.getByRole('link', { name: 'Download the signed agreement (PDF)' });
          await download.waitFor();
          const signedPdf = await phone.request.get(await download.getAttribute('href'));
          expect(signedPdf.ok() && (await signedPdf.body()).subarray(0, 4).toString() === '%PDF', 'the family downloads the signed PDF');
          await expectAccessible(phone, 'used signing link page');

          // The staff page moves on its own.
          await page.getByText('Active Patient').first().waitFor({ timeout: 15_000 });
          const status = await json(await page.request.get(`/api/contracts/${contract.id}/signing`), 'signing status');
          expect(status.signature?.signer_name === 'Jane Family', `signed by ${status.signature?.signer_name}`);
          expect(status.signature?.method === 'drawn', `signed by ${status.signature?.method}`);
          expect(status.links[0]?.state === 'used', `link ${status.links[0]?.state}`);
          const timeline = await json(await page.request.get(`/api/communications?intake_id=${plan.intake_id}`), 'timeline');
          const events = timeline.items.map((item) => item.content).join('\n');
          expect(events.includes('Proposal approved by Jane Family'), 'the timeline shows the approval');
          expect(events.includes('Contract signed by Jane Family (Daughter)'), 'the timeline shows the signature');
        } finally {
          await family.close();
        }
      },
    },
    {
      name: "the family's approval page shows the agency's logo, address and phone",
      as: admin,
      async run(page) {
        const baseURL = process.env.CAREPATH_URL;
        await json(await page.request.put('/api/settings/logo', { headers: { 'Content-Type': 'image/png' }, data: Buffer.from(LOGO_PNG, 'base64') }), 'uploading the logo');
        const settings = await json(await page.request.get('/api/settings'), 'settings');
        try {
          const plans = await json(await page.request.get('/api/care-plans?status=draft&limit=50'), 'care plans');
          const plan = plans.items.find((item) => item.intake_id);
          expect(plan, 'the demo has a draft care plan with a client');
          const sentAt = Date.now() - 1000;
          await json(
            await page.request.post(`/api/care-plans/${plan.id}/send`, { data: { to: 'family@example.test', body: `Dear family, here is the proposal for ${plan.client_name}.`, version: plan.version } }),
            'sending the proposal',
          );
          const approveLink = await newestLink('approve', sentAt);
          const family = await page.context().browser().newContext({ baseURL, viewport: { width: 390, height: 844 } });
          try {
            const phone = await family.newPage();
            phone.setDefaultTimeout(10_000);
            await phone.goto(approveLink);
            await phone.getByRole('heading', { name: 'Your Home Care Proposal' }).waitFor();
            const logo = phone.getByRole('img', { name: `${settings.general.company_name} logo` });
            await logo.waitFor();
            expect(await logo.isVisible(), 'the logo is not visible');
            expect(await logo.evaluate((img) => img.complete && img.naturalWidth === 48), 'the logo picture did not load');
            if (settings.general.contact_phone) {
              await phone.getByText(`Phone ${settings.general.contact_phone}`, { exact: false }).first().waitFor();
            }
            await expectAccessible(phone, 'proposal approval page with a logo');
          } finally {
            await family.close();
          }
        } finally {
          await page.request.delete('/api/settings/logo');
        }
      },
    },
  ];
}
