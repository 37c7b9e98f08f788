// Browser tests of the pipeline past the assessment, walked as a new user would: care plan,
// proposal email, approval, contract, signature, and the client shown as an active patient.
// The outbox checks read the server's `.eml` files from CAREPATH_OUTBOX when it is set.
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, expectAccessible } from './harness.mjs';

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

async function screenshot(page, name) {
  if (!process.env.E2E_SCREENSHOTS_DOCS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
  const hideToasts = (hidden) => {
    for (const toaster of document.querySelectorAll('[data-sonner-toaster]')) toaster.style.visibility = hidden ? 'hidden' : '';
  };
  await page.evaluate(hideToasts, true);
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
  await page.evaluate(hideToasts, false);
}

/** The newest `.eml` in the outbox whose subject is `subject`, as text (null without an outbox). */
async function newestEmail(subject) {
  const dir = process.env.CAREPATH_OUTBOX;
  if (!dir) return null;
  const names = (await readdir(dir)).filter((name) => name.endsWith('.eml'));
  const files = await Promise.all(names.map(async (name) => ({ name, modified: (await stat(join(dir, name))).mtimeMs })));
  files.sort((a, b) => b.modified - a.modified);
  for (const file of files) {
    const text = await readFile(join(dir, file.name), 'utf8');
    if (new RegExp(`^Subject: ${subject}\\r?$`, 'm').test(text)) return text;
  }
  throw new Error(`no email with the subject "${subject}" in the outbox`);
}

function expectPdfAttached(eml, label) {
  expect(/Content-Type: application\/pdf/i.test(eml), `${label}: the email has no PDF attachment`);
  expect(/Content-Disposition: attachment;\s+filename[^=\r\n]*="?[^"\r\n]*\.pdf/i.test(eml), `${label}: the PDF is not attached as a file`);
}

/** The cost rules of core's rules/costs.rs: hours × rate and weekly × 4.33, to the cent. */
const cents = (value) => Math.round((value + Number.EPSILON) * 100) / 100;
/** Dollars as every screen and document prints them: "$1,357.46". */
const money = (value) => cents(value).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

export function pipelineTests({ admin, staff }) {
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  const toast = (page, text) => page.locator('[data-sonner-toast]').getByText(text, { exact: true }).first();

  /** A demo care plan the test may change, found through the API. */
  async function carePlanWith(page, status) {
    const answer = await page.request.get(`/api/care-plans?status=${status}&limit=50`);
    expect(answer.ok(), `GET /api/care-plans answered ${answer.status()}`);
    const { items } = await answer.json();
    // A plan that names its family contact: the form refuses to save one that does not.
    const plan = items.find((item) => item.status === status && item.family_contact_email);
    expect(plan, `the demo has no ${status} care plan with a family email`);
    return plan;
  }

  return [
    {
      name: 'pipeline: a new lead goes from intake to signed contract and shows as an active patient',
      as: admin,
      async run(page) {
        {
          const stamp = Date.now();
          const name = `Pipeline Client ${stamp}`;
          const familyEmail = `family.${stamp}@example.com`;
          const replyTo = `office.${stamp}@example.com`;
          const blindCopies = [`records.${stamp}@example.com`, `owner.${stamp}@example.com`];

          // Settings route the replies and blind copies of proposal and contract emails.
          const settings = await (await page.request.get('/api/settings')).json();
          const saved = await page.request.put('/api/settings', { data: { tab: 'email', version: settings.versions.email, values: { ...settings.email, reply_to: replyTo, bcc: blindCopies } } });
          expect(saved.ok(), `saving the email settings answered ${saved.status()}: ${await saved.text()}`);

          // Intake.
          await open(page, '/intake');
          await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
          await page.getByLabel('Staff Member Taking Call').fill('Sam Staff');
          await page.getByLabel('Caller Name').fill('Pat Family');
          await page.getByLabel('Caller Phone').fill('(217) 555-0142');
          await page.getByLabel('Caller Email').fill(familyEmail);
          await page.getByLabel('Client Full Name').fill(name);
          await page.getByRole('button', { name: 'Submit Intake' }).click();
          await page.getByRole('dialog').getByRole('button', { name: 'Schedule Assessment Now' }).click();

          // Assessment: two services without personal care suggest the Standard template.
          await page.waitForURL(/\/assessments\/new\?intake_id=/);
          await page.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor();
          await page.getByLabel('Coordinator Name').fill('Casey Coordinator');
          const recommended = page.getByRole('region', { name: 'Recommended Services & Schedule' });
          await recommended.getByRole('checkbox', { name: 'Companionship' }).check();
          await recommended.getByRole('checkbox', { name: 'Light Housekeeping' }).check();
          await recommended.getByLabel('Recommended Hours per Week').fill('11');
          await recommended.getByRole('checkbox', { name: 'Monday' }).check();
          await page.getByRole('button', { name: 'Save Assessment' }).click();
          await toast(page, 'Assessment Saved').waitFor();
          await page.waitForURL(/\/assessments\/new\?assessment_id=/);
          await page.getByRole('complementary', { name: 'Client context' }).getByRole('heading', { name }).waitFor();
          await page.getByRole('button', { name: 'Generate Care Plan' }).click();

          // Care plan, priced from the default template by the server.
          await page.waitForURL(/\/care-plans\/new\?care_plan_id=/);
          await page.getByRole('heading', { name: 'Care Plan Proposal' }).waitFor();
          const template = page.getByLabel('Pricing Template');
          await page.waitForFunction(() => document.querySelectorAll('#pricing_template_id option').length > 1);
          const chosen = await template.evaluate((select) => select.options[select.selectedIndex]?.textContent ?? '');
          expect(chosen.startsWith('Standard Companion Care'), `the suggested template is "${chosen}"`);
          await page.getByText('Suggested rate based on template - you can adjust manually if needed').waitFor();
          const rate = Number(await page.getByLabel('Hourly Rate ($)').inputValue());
          expect(rate === 28.5, `the template's rate is ${rate}`);
          await page.getByLabel('Family Contact Name').fill('Pat Family');
          await page.getByLabel('Family Contact Email').fill(familyEmail);
          for (const day of ['Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Sunday']) await page.getByLabel(`${day} hours`).fill('');
          await page.getByLabel('Monday hours').fill('4');
          await page.getByLabel('Wednesday hours').fill('4');
          await page.getByLabel('Saturday hours').fill('3');
          const weekly = cents(11 * rate);
          const monthly = cents(weekly * 4.33);
          const costs = page.getByRole('region', { name: 'Cost of Care' });
          await costs.getByText(money(weekly), { exact: true }).waitFor();
          await costs.getByText(money(monthly), { exact: true }).waitFor();
          await page.getByTestId('schedule-total-hours').getByText('11', { exact: true }).waitFor();
          // One price: every hour at the hourly rate, and the screen says where the rate comes from.
          await costs.getByText('3 hours at the same rate').waitFor();
          await costs.getByTestId('rate-source').getByText(/template's rate|set by staff/).waitFor();
          await expectAccessible(page, 'care plan form');
          await page.getByRole('button', { name: 'Save Care Plan' }).click();
          await toast(page, 'Care Plan Saved').waitFor();
          await page.evaluate(() => window.scrollTo(0, 0));
          await screenshot(page, 'care-plan');

          // Proposal email, drafted by the built-in writer and sent with the letter attached.
          await page.getByRole('button', { name: 'Email Marketing Proposal' }).first().click();
          const proposal = page.getByRole('dialog', { name: 'Marketing Proposal Email' });
          expect((await proposal.getByLabel('Subject').inputValue()) === 'Home Care Proposal', 'the proposal subject');
          await page.waitForFunction(() => (document.querySelector('#proposal-content')?.value ?? '').length > 20);
          expect((await proposal.getByLabel('Recipient').inputValue()) === familyEmail, 'the proposal goes to the family');
          const letter = await proposal.getByLabel('Email Content').inputValue();
          expect(letter.startsWith('Dear Pat Family,'), `the proposal does not greet the family contact: ${letter}`);
          expect(letter.includes('approve the proposal with your personal link below'), `the proposal does not ask for approval by link: ${letter}`);
          expect(!/reply YES|[[\]{}]/.test(letter), `the proposal carries an instruction or a placeholder: ${letter}`);
          await expectAccessible(page, 'proposal email dialog');
          await screenshot(page, 'proposal-email');
          await proposal.getByRole('button', { name: 'Send Email' }).click();
          await toast(page, 'Email Sent').waitFor();
          await page.getByRole('status').getByText('Sent', { exact: true }).waitFor();
          const proposalEml = await newestEmail('Home Care Proposal');
          if (proposalEml) {
            expect(proposalEml.includes(familyEmail), 'the proposal .eml is not addressed to the family');
            expect(new RegExp(`^Reply-To: .*${replyTo.replace('.', '\\.')}`, 'm').test(proposalEml), 'the proposal has no reply-to from the settings');
            expectPdfAttached(proposalEml, 'proposal');
            // Blind copies travel in the envelope only: the outbox file's first line names it.
            const envelope = /^X-Envelope-To: (.*)$/m.exec(proposalEml)?.[1] ?? '';
            expect(blindCopies.every((address) => envelope.includes(address)), `the blind copies are not in the envelope: ${envelope}`);
            expect(!/^Bcc:/m.test(proposalEml), 'the blind copies show in the message headers');
          }

          // The family said yes.
          await page.getByRole('button', { name: 'Mark Approved' }).click();
          await toast(page, 'Care Plan Approved').waitFor();
          await page.getByRole('status').getByText('Approved', { exact: true }).waitFor();

          // Contract, generated from the approved plan.
          await page.getByRole('button', { name: 'Generate Contract' }).click();
          await page.waitForURL(/\/contracts\/new\?care_plan_id=/);
          await page.getByRole('heading', { name: 'Generate Contract' }).waitFor();
          const preview = page.getByLabel('Contract Preview');
          await page.waitForFunction(() => (document.querySelector('#content')?.value ?? '').length > 100);
          const text = await preview.inputValue();
          expect(text.includes(name), 'the contract does not name the client');
          for (const amount of [rate, weekly, monthly]) {
            expect(text.includes(money(amount)), `the contract does not show ${money(amount)}`);
          }
          await page.getByLabel('Pricing').getByText(money(weekly)).waitFor();
          await expectAccessible(page, 'contract screen');
          await screenshot(page, 'contract');
          await page.getByRole('button', { name: 'Send for Signature' }).click();
          const send = page.getByRole('dialog', { name: 'Send Contract for Signature' });
          expect((await send.getByLabel('Subject').inputValue()) === 'Home Care Service Agreement - Ready for Signature', 'the contract subject');
          expect((await send.getByLabel('To').inputValue()) === familyEmail, 'the contract goes to the family');
          // The server writes the email: the family contact by name, signing by the link.
          await page.waitForFunction(() => (document.querySelector('#contract-body')?.value ?? '').startsWith('Dear '));
          const contractLetter = await send.getByLabel('Message').inputValue();
          expect(contractLetter.startsWith('Dear Pat Family,'), `the contract email does not greet the family contact: ${contractLetter}`);
          expect(contractLetter.includes('sign it online with your personal link below'), `the contract email does not point to the link: ${contractLetter}`);
          expect(!/reply to sign|sign it and reply/i.test(contractLetter), `the contract email says to reply to sign: ${contractLetter}`);
          expect(contractLetter.trimEnd().split('\n').includes('Warm regards,'), `the contract email has no sign-off: ${contractLetter}`);
          await expectAccessible(page, 'send contract dialog');
          await send.getByRole('button', { name: 'Send Contract' }).click();
          await toast(page, 'Contract Sent').waitFor();
          await page.waitForURL(/\/contracts$/, { timeout: 6000 });
          const contractEml = await newestEmail('Home Care Service Agreement - Ready for Signature');
          if (contractEml) {
            expect(contractEml.includes(familyEmail), 'the contract .eml is not addressed to the family');
            expect(new RegExp(`^Reply-To: .*${replyTo.replace('.', '\\.')}`, 'm').test(contractEml), 'the contract has no reply-to from the settings');
            expect(blindCopies.every((address) => (/^X-Envelope-To: (.*)$/m.exec(contractEml)?.[1] ?? '').includes(address)), 'the contract has no blind copies');
            expectPdfAttached(contractEml, 'contract');
            // The personal link sits above the sign-off, so the email ends with who wrote it
            // (this outbox file is the blind copies' one, which shows where the link went).
            const readable = contractEml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
            const link = Math.max(readable.indexOf('/sign/'), readable.indexOf('personal link, sent to the recipient only'));
            expect(link > 0 && link < readable.lastIndexOf('Warm regards,'), 'the signing link is not above the sign-off');
          }

          // Signed from the contracts list.
          await page.getByLabel('Search contracts').fill(name);
          const row = page.getByRole('row', { name: new RegExp(name) });
          await row.getByText('Pending Signature').waitFor();
          await row.getByRole('button', { name: 'Mark as Signed' }).click();
          await toast(page, 'Contract Signed').waitFor();
          await row.getByText('Signed', { exact: true }).waitFor();

          // Active Patient on the dashboard, the clients list and the profile.
          await open(page, '/');
          await page.getByRole('button', { name: new RegExp(name) }).getByText('Active Patient').waitFor();
          await page.goto('/clients');
          await page.getByLabel('Search clients').fill(name);
          await page.getByRole('row', { name: new RegExp(name) }).getByText(/Active Patient/).first().waitFor();
          await page.getByRole('cell', { name, exact: true }).click();
          await page.getByRole('heading', { name, exact: true }).waitFor();
          await page.getByText(/Active Patient/).first().waitFor();

          // Each move wrote a system event into the client's timeline.
          const intakeId = page.url().split('/clients/')[1].split('?')[0];
          const events = (await (await page.request.get(`/api/communications?intake_id=${intakeId}`)).json()).items.filter((item) => item.communication_type === 'system_event');
          expect(events.length >= 6, `the timeline holds ${events.length} system events`);
          await page.getByRole('tab', { name: 'Communications' }).click();
          const timeline = page.getByRole('list', { name: 'Communications' });
          for (const event of events) await timeline.getByText(event.subject ?? event.content, { exact: false }).first().waitFor();
        }
      },
    },
    {
      name: 'pipeline: the care plans and contracts lists pass axe and open their forms',
      as: admin,
      async run(page) {
        await open(page, '/');
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.getByRole('link', { name: /Awaiting Signatures/ }).click();
        await page.waitForURL(/\/contracts\?status=sent$/);
        expect((await page.getByLabel('Status').inputValue()) === 'sent', 'the dashboard card opens the contracts awaiting signature');
        await page.goBack();
        await page.getByRole('link', { name: /Active Care Plans/ }).click();
        await page.waitForURL(/\/care-plans$/);
        await page.getByRole('heading', { name: 'Care Plans' }).waitFor();
        await page.getByRole('cell').first().waitFor();
        await expectAccessible(page, 'care plans list');
        await screenshot(page, 'care-plans');
        await page.keyboard.press('t');
        await page.waitForURL(/\/contracts$/);
        await page.getByRole('heading', { name: 'Contracts' }).waitFor();
        await page.getByRole('cell').first().waitFor();
        for (const card of ['Awaiting Signatures', 'Sent This Week', 'Signed This Month']) await page.getByRole('button', { name: new RegExp(card) }).waitFor();
        await page.getByRole('button', { name: /Awaiting Signatures/ }).click();
        expect((await page.getByLabel('Status').inputValue()) === 'sent', 'the Awaiting Signatures card filters sent contracts');
        await expectAccessible(page, 'contracts list');
        await screenshot(page, 'contracts');
        await page.getByRole('button', { name: /^View contract for / }).first().click();
        await page.waitForURL(/\/contracts\/new\?contract_id=/);
        await page.getByRole('heading', { name: /^Contract - / }).waitFor();
        await page.getByText('PENDING SIGNATURE', { exact: true }).waitFor();
        await page.getByText(/Major changes require creating a new care plan/).waitFor();
        await expectAccessible(page, 'contract (sent)');
        await page.keyboard.press('c');
        await page.waitForURL(/\/care-plans$/);
        await page.getByRole('cell').first().click();
        await page.waitForURL(/\/care-plans\/new\?care_plan_id=/);
        await page.getByRole('heading', { name: 'Care Plan Proposal' }).waitFor();
      },
    },
    {
      name: 'pipeline: a second page sees a care plan approved live',
      as: admin,
      async run(page) {
        await open(page, '/');
        const plan = await carePlanWith(page, 'sent');
        const watcher = await page.context().newPage();
        await watcher.goto(`/care-plans/new?care_plan_id=${plan.id}`);
        await watcher.getByRole('status').getByText('Sent', { exact: true }).waitFor();
        await open(page, `/care-plans/new?care_plan_id=${plan.id}`);
        await page.getByRole('button', { name: 'Mark Approved' }).click();
        await toast(page, 'Care Plan Approved').waitFor();
        await watcher.getByRole('status').getByText('Approved', { exact: true }).waitFor();
        await watcher.close();
      },
    },
    {
      name: 'pipeline: two tabs edit one care plan and the second save gets the conflict message',
      as: admin,
      async run(page) {
        await open(page, '/');
        const plan = await carePlanWith(page, 'draft');
        const other = await page.context().newPage();
        await other.goto(`/care-plans/new?care_plan_id=${plan.id}`);
        await open(page, `/care-plans/new?care_plan_id=${plan.id}`);
        await page.getByLabel('Additional Notes').fill('First tab: prefers mornings.');
        await other.getByLabel('Additional Notes').fill('Second tab: call the son first.');
        await page.getByRole('button', { name: 'Save Care Plan' }).click();
        // One toast shows at a time: the saved one may wait behind another's five seconds.
        await toast(page, 'Care Plan Saved').waitFor({ timeout: 20_000 });
        await other.getByRole('button', { name: 'Save Care Plan' }).click();
        await other.getByRole('alert').getByText(/changed by someone else/).waitFor();
        expect((await other.getByLabel('Additional Notes').inputValue()) === 'Second tab: call the son first.', 'the second tab lost its text');
        const stored = await (await page.request.get(`/api/care-plans/${plan.id}`)).json();
        expect(stored.additional_notes === 'First tab: prefers mornings.', 'the first save was overwritten');
        await other.close();
      },
    },
    {
      name: 'pipeline: a staff user sees no delete buttons on care plans and contracts and the API refuses',
      as: staff,
      async run(page) {
        await open(page, '/care-plans');
        await page.getByRole('heading', { name: 'Care Plans' }).waitFor();
        await page.getByRole('button', { name: /^Actions for / }).first().click();
        await page.getByRole('menu').waitFor();
        expect((await page.getByRole('menuitem', { name: 'Delete' }).count()) === 0, 'a staff user sees Delete on a care plan');
        await page.keyboard.press('Escape');
        await expectAccessible(page, 'care plans as staff');
        await open(page, '/contracts');
        await page.getByRole('cell').first().waitFor();
        expect((await page.getByRole('button', { name: /^Actions for / }).count()) === 0, 'a staff user sees the contract delete menu');
        const { items } = await (await page.request.get('/api/contracts')).json();
        const refused = await page.request.delete(`/api/contracts/${items[0].id}`, { headers: { Origin: new URL(page.url()).origin } });
        expect(refused.status() === 403, `a staff delete answered ${refused.status()}`);
        const plans = await (await page.request.get('/api/care-plans?limit=1')).json();
        const refusedPlan = await page.request.delete(`/api/care-plans/${plans.items[0].id}`, { headers: { Origin: new URL(page.url()).origin } });
        expect(refusedPlan.status() === 403, `a staff care plan delete answered ${refusedPlan.status()}`);
      },
    },
    {
      name: 'pipeline: an admin soft-deletes a contract and restores it',
      as: admin,
      async run(page) {
        await open(page, '/contracts');
        await page.getByRole('cell').first().waitFor();
        const { items } = await (await page.request.get('/api/contracts?status=draft')).json();
        const contract = items[0] ?? (await (await page.request.get('/api/contracts')).json()).items[0];
        await page.getByLabel('Search contracts').fill(contract.client_name);
        // The list has settled on the search once only the client's contracts are left.
        await page.waitForFunction((name) => [...document.querySelectorAll('tbody tr')].every((tr) => tr.textContent.includes(name)), contract.client_name);
        const row = page.getByRole('row', { name: new RegExp(contract.client_name) }).first();
        await row.getByRole('button', { name: `Actions for ${contract.client_name}` }).click();
        await page.getByRole('menuitem', { name: 'Delete' }).click();
        const confirm = page.getByRole('alertdialog');
        await confirm.getByText(new RegExp(`contract for ${contract.client_name}`)).waitFor();
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await toast(page, 'Contract Deleted').waitFor();
        await row.waitFor({ state: 'detached' });
        const listed = (await (await page.request.get(`/api/contracts?q=${encodeURIComponent(contract.client_name)}`)).json()).items;
        expect(!listed.some((item) => item.id === contract.id), 'the deleted contract is still listed');
        const restored = await page.request.post(`/api/contracts/${contract.id}/restore`, { headers: { Origin: new URL(page.url()).origin } });
        expect(restored.ok(), `restoring answered ${restored.status()}`);
        await page.reload();
        await page.getByLabel('Search contracts').fill(contract.client_name);
        await page.getByRole('row', { name: new RegExp(contract.client_name) }).first().waitFor();
      },
    },
    {
      name: 'pipeline: a lost lead is marked declined with a reason, listed as archived and reopened',
      as: staff,
      async run(page) {
        const name = `Lost Lead ${Date.now()}`;
        await open(page, '/intake');
        await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
        // N opens a new intake (Ctrl+N belongs to the browser); typing in a field does not.
        await page.getByLabel('Staff Member Taking Call').fill('Sam Staff n');
        expect(page.url().endsWith('/intake'), 'typing N navigated');
        await page.getByLabel('Caller Name').fill('Lee Caller');
        await page.getByLabel('Caller Phone').fill('(217) 555-0177');
        await page.getByLabel('Client Full Name').fill(name);
        // Manage Contacts before the first save stores a draft, then opens the dialog.
        await page.getByRole('button', { name: /Manage Contacts/ }).click();
        await toast(page, 'Draft Saved').waitFor();
        const contacts = page.getByRole('dialog', { name: 'Manage Contacts' });
        await contacts.getByText('No contacts yet.').waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Submit Intake' }).click();
        const saved = page.getByRole('dialog', { name: 'Intake Saved Successfully!' });
        await saved.getByRole('button', { name: 'Return to Dashboard' }).click();
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.keyboard.press('n');
        await page.waitForURL(/\/intake$/);

        await page.goto('/clients');
        await page.getByLabel('Search clients').fill(name);
        await page.getByRole('cell', { name, exact: true }).click();
        await page.getByRole('heading', { name, exact: true }).waitFor();
        await page.getByRole('button', { name: 'Mark as Lost' }).click();
        const dialog = page.getByRole('dialog', { name: `Mark ${name} as Lost` });
        await dialog.getByRole('button', { name: 'Archive Client' }).click();
        await dialog.getByText('Please give the reason.').waitFor();
        await dialog.getByRole('radio', { name: 'Declined' }).check();
        await dialog.getByLabel('Reason').fill('Family chose another agency.');
        await expectAccessible(page, 'archive dialog');
        await dialog.getByRole('button', { name: 'Archive Client' }).click();
        await toast(page, 'Client Archived').waitFor();
        await page.getByRole('status').getByText('Reason: Family chose another agency.').waitFor();
        await page.getByRole('tab', { name: 'Communications' }).click();
        await page.getByRole('list', { name: 'Communications' }).getByText(/declined|archived/i).first().waitFor();

        await page.goto('/clients?filter=archived');
        await page.getByLabel('Search clients').fill(name);
        await page.getByRole('cell', { name, exact: true }).waitFor();
        await page.getByRole('cell', { name, exact: true }).click();
        await page.getByRole('button', { name: 'Reopen' }).click();
        await toast(page, 'Client Reopened').waitFor();
        await page.getByRole('button', { name: 'Mark as Lost' }).waitFor();
        const reopened = await (await page.request.get(`/api/clients?stage=archived&q=${encodeURIComponent(name)}`)).json();
        expect(reopened.items.length === 0, 'the reopened client is still archived');
        // A saved intake without an assessment offers Schedule Assessment.
        const intakeId = page.url().split('/clients/')[1].split('?')[0];
        await page.goto(`/intake?intake_id=${intakeId}`);
        await page.getByRole('button', { name: 'Schedule Assessment', exact: true }).click();
        await page.waitForURL(/\/assessments\/new\?intake_id=/);
      },
    },
  ];
}
