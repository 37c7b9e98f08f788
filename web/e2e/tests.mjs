// The browser tests, written as a new user would walk through the app. Each test gets a
// fresh browser context; `signIn` opens a session as the admin or the staff user.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, expectAccessible } from './harness.mjs';
import { pipelineTests } from './pipeline.mjs';
import { signingTests } from './signing.mjs';
import { officeTests } from './office.mjs';
import { officeDraftTests } from './office-drafts.mjs';
import { notificationTests } from './notifications.mjs';
import { typedWorkTests } from './typed-work.mjs';
import { feedbackTests } from './feedback.mjs';
import { visitTests } from './visits.mjs';
import { queueTests } from './queue.mjs';
import { handoffTests } from './handoff.mjs';
import { firstRunTests } from './first-run.mjs';
import { accountTests } from './account.mjs';
import { secondFactorTests } from './second-factor.mjs';
import { offlineTests } from './offline.mjs';
import { passkeyTests } from './passkeys.mjs';

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/** Saves a 1280×800 screenshot of the main screens when E2E_SCREENSHOTS_DOCS is set. */
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

export function createTests({ admin, staff }) {
  async function signIn(page, path = '/', user = admin) {
    await page.goto(path);
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  /** Opens a screen with the session the harness prepared for the test's user. */
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  /** Fills the intake form's required fields and submits it; returns the client's name. */
  async function submitIntake(page, prefix, { email = '' } = {}) {
    const name = `${prefix} ${Date.now()}`;
    await page.goto('/intake');
    await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
    await page.getByLabel('Staff Member Taking Call').fill('Sam Staff');
    await page.getByLabel('Caller Name').fill('Pat Caller');
    await page.getByLabel('Caller Phone').fill('(217) 555-0100');
    if (email) await page.getByLabel('Caller Email').fill(email);
    await page.getByLabel('Client Full Name').fill(name);
    await page.getByRole('button', { name: 'Submit Intake' }).click();
    await page.getByRole('dialog').getByText('What would you like to do next?').waitFor();
    return name;
  }

  /** Opens a client's profile from the clients list search. */
  async function openClient(page, name) {
    await page.goto('/clients');
    await page.getByLabel('Search clients').fill(name);
    await page.getByRole('cell', { name, exact: true }).click();
    await page.getByRole('heading', { name, exact: true }).waitFor();
  }

  const toast = (page, text) => page.locator('[data-sonner-toast]').getByText(text, { exact: true }).first();

  return [
    ...officeTests({ admin, staff }),
    ...officeDraftTests({ admin, staff }),
    ...notificationTests({ admin, staff }),
    ...typedWorkTests({ admin, staff }),
    ...feedbackTests({ admin, staff }),
    ...visitTests({ admin, staff }),
    ...queueTests({ admin, staff }),
    ...handoffTests({ admin, staff }),
    ...firstRunTests(),
    ...accountTests({ admin, staff }),
    ...secondFactorTests({ admin, staff }),
    ...offlineTests({ staff }),
    ...passkeyTests(),
    {
      name: 'a signed-out visitor lands on the sign-in page and keeps the route',
      async run(page) {
        await page.goto('/clients?filter=intake');
        await page.waitForURL(/\/login\?next=/);
        expect(new URL(page.url()).searchParams.get('next') === '/clients?filter=intake', `next is ${page.url()}`);
        await page.getByRole('button', { name: 'Sign in with Magic Link' }).click();
        await page.getByText('Please enter your email address.').waitFor();
        await expectAccessible(page, 'sign-in');
        await screenshot(page, 'sign-in');
      },
    },
    {
      name: 'a wrong password is refused with the server message',
      async run(page) {
        await page.goto('/login');
        await page.getByLabel('Email').fill(admin.email);
        await page.locator('#password').fill('not-the-password');
        await page.getByRole('button', { name: 'Sign In', exact: true }).click();
        await page.getByText(/invalid|incorrect|wrong/i).first().waitFor();
        expect(page.url().includes('/login'), 'a wrong password should stay on the sign-in page');
      },
    },
    {
      name: 'the sign-in page checks a new password before asking the server',
      async run(page) {
        await page.goto('/login#type=recovery&token=abc');
        await page.getByRole('heading', { name: 'Set New Password' }).waitFor();
        await page.getByLabel('New password').fill('abc');
        await page.getByLabel('Confirm password').fill('abd');
        await page.getByRole('button', { name: 'Update Password' }).click();
        await page.getByText('Passwords do not match').waitFor();
        await page.getByLabel('Confirm password').fill('abc');
        await page.getByRole('button', { name: 'Update Password' }).click();
        await page.getByText('Password must be at least 6 characters').waitFor();
      },
    },
    {
      name: 'an unknown route shows the not-found page',
      async run(page) {
        await page.goto('/no-such-page');
        await page.getByText('Oops! Page not found').waitFor();
        await expectAccessible(page, '404');
      },
    },
    {
      name: 'signing in returns to the route asked for',
      async run(page) {
        await signIn(page, '/clients');
        await page.waitForURL(/\/clients$/);
        await page.getByRole('heading', { name: 'All Clients' }).waitFor();
        await page.getByRole('cell').first().waitFor();
        await expectAccessible(page, 'clients');
        await screenshot(page, 'clients');
      },
    },
    {
      name: 'the dashboard shows its cards and passes axe',
      as: admin,
      async run(page) {
        await open(page, '/');
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.getByText('Next 7 days, plan your schedule effectively.').waitFor();
        for (const card of ['New Intakes', 'Pending Assessments', 'Active Care Plans', 'Awaiting Signatures']) await page.getByRole('link', { name: new RegExp(card) }).waitFor();
        await page.getByText(/^Next: /).first().waitFor();
        await expectAccessible(page, 'dashboard');
        await screenshot(page, 'dashboard');
      },
    },
    {
      name: 'keyboard shortcuts navigate but not while typing',
      as: admin,
      async run(page) {
        await open(page, '/');
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.keyboard.press('a');
        await page.waitForURL(/\/assessments$/);
        await page.getByRole('heading', { name: 'Assessments' }).waitFor();
        await page.getByLabel('Search assessments').fill('ia');
        await page.waitForTimeout(300);
        expect(page.url().endsWith('/assessments'), `typing navigated to ${page.url()}`);
        await expectAccessible(page, 'assessments');
        await page.locator('body').click({ position: { x: 5, y: 200 } });
        await page.keyboard.press('i');
        await page.waitForURL(/\/clients$/);
        await page.keyboard.press('c');
        await page.waitForURL(/\/care-plans$/);
        await page.keyboard.press('Control+k');
        await page.getByRole('dialog', { name: 'Search Clients' }).waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('dialog', { name: 'Search Clients' }).waitFor({ state: 'hidden' });
        await page.keyboard.press('?');
        await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
        await expectAccessible(page, 'shortcuts dialog');
        await page.keyboard.press('Escape');
        await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'the search dialog finds a demo client and opens it',
      as: admin,
      async run(page) {
        await open(page, '/');
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        const first = page.getByRole('list', { name: 'Recent activity' }).or(page.locator('main ul').first()).locator('li').first();
        await first.waitFor();
        await page.keyboard.press('Control+k');
        const dialog = page.getByRole('dialog', { name: 'Search Clients' });
        await dialog.waitFor();
        await dialog.getByText('Start typing to search clients').waitFor();
        const listed = await (await page.request.get('/api/clients?limit=1&sort=name')).json();
        const word = listed.items[0].client_full_name.split(' ')[0];
        await dialog.getByLabel('Search clients').fill(word.slice(0, 1));
        await dialog.getByText('Start typing to search clients').waitFor();
        await dialog.getByLabel('Search clients').fill(word);
        const results = dialog.getByRole('list', { name: 'Search results' });
        await results.locator('li').first().waitFor();
        await expectAccessible(page, 'search dialog');
        await screenshot(page, 'search');
        await results.locator('li').first().getByRole('button').or(results.locator('li').first().getByRole('link')).first().click();
        await dialog.waitFor({ state: 'hidden' });
        expect(!page.url().endsWith('/'), `the result did not navigate: ${page.url()}`);
      },
    },
    {
      name: 'an intake with missing fields is highlighted, then completed and shown on the dashboard',
      as: admin,
      async run(page) {
        await open(page, '/intake');
        await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
        await expectAccessible(page, 'intake form');
        await screenshot(page, 'intake');
        // The signed-in user is prefilled as the staff member taking the call; emptied here.
        await page.getByLabel('Staff Member Taking Call').fill('');
        await page.getByLabel('Client Full Name').fill('');
        await page.getByRole('button', { name: 'Submit Intake' }).click();
        await toast(page, 'Missing Required Fields').waitFor();
        await page.getByText('Please fill in 3 required field(s) highlighted in red.').waitFor();
        const invalid = page.locator('[aria-invalid="true"]');
        expect((await invalid.count()) === 3, `expected 3 highlighted fields, saw ${await invalid.count()}`);
        await page.waitForTimeout(600);
        const inView = await invalid.first().evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        });
        expect(inView, 'the first highlighted field was not scrolled into view');
        await page.getByLabel('Staff Member Taking Call').fill('Sam Staff');
        await page.getByLabel('Caller Name').fill('Dana Caller');
        expect((await invalid.count()) === 1, 'editing a field should clear its highlight');
        await page.getByLabel('Caller Phone').fill('(217) 555-0199');
        await page.getByLabel('Client is the caller').check();
        expect((await page.getByLabel('Client Full Name').inputValue()) === 'Dana Caller', 'client name copies the caller');
        expect(await page.getByLabel('Client Full Name').isDisabled(), 'client name is disabled when the client is the caller');
        await page.getByLabel('Client is the caller').uncheck();
        const name = `Dashboard Client ${Date.now()}`;
        await page.getByLabel('Client Full Name').fill(name);
        await page.getByLabel('Companionship').check();
        await page.getByRole('button', { name: 'Submit Intake' }).click();
        const dialog = page.getByRole('dialog', { name: 'Intake Saved Successfully!' });
        await dialog.getByText('What would you like to do next?').waitFor();
        await expectAccessible(page, 'intake saved dialog');
        await dialog.getByRole('button', { name: 'Return to Dashboard' }).click();
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        const entry = page.getByRole('button', { name: new RegExp(name) });
        await entry.waitFor();
        await entry.getByText('New Client').waitFor();
        await entry.getByText('Next: Schedule Assessment').waitFor();
        await entry.click();
        await page.waitForURL(/\/assessments\/new\?intake_id=/);
      },
    },
    {
      name: 'a contact is added and deleted',
      as: admin,
      async run(page) {
        await open(page, '/');
        const name = await submitIntake(page, 'Contact Client');
        await openClient(page, name);
        await page.getByRole('tab', { name: 'Contacts' }).click();
        await page.getByRole('button', { name: 'Manage Contacts (0)' }).click();
        const dialog = page.getByRole('dialog', { name: 'Manage Contacts' });
        await dialog.getByText('No contacts yet.').waitFor();
        await dialog.getByLabel('Full name').fill('Jordan Family');
        await dialog.getByLabel('Relationship').fill('Son');
        await dialog.getByLabel('Phone').fill('(217) 555-0123');
        await dialog.getByLabel('Email').fill('jordan@example.com');
        await dialog.getByLabel('Primary contact').check();
        await dialog.getByRole('button', { name: 'Add Contact' }).click();
        await toast(page, 'Contact added successfully').waitFor();
        const list = dialog.getByRole('list', { name: 'Contacts' });
        await list.getByText('Jordan Family').waitFor();
        await list.getByText('Primary', { exact: true }).waitFor();
        await expectAccessible(page, 'contacts dialog');
        await dialog.getByRole('button', { name: 'Delete Jordan Family' }).click();
        const confirm = page.getByRole('alertdialog');
        await confirm.getByText('Are you sure you want to delete this contact?').waitFor();
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await toast(page, 'Contact deleted successfully').waitFor();
        await dialog.getByText('No contacts yet.').waitFor();
      },
    },
    {
      name: 'emails, SMS, notes and calls reach the outbox and show live on a second page',
      as: admin,
      async run(page) {
        await open(page, '/');
        const name = await submitIntake(page, 'Outbox Client', { email: 'family@example.com' });
        await openClient(page, name);
        const url = page.url();
        const watcher = await page.context().newPage();
        await watcher.goto(`${url.split('?')[0]}?tab=communications`);
        const watched = watcher.getByRole('list', { name: 'Communications' });
        await watcher.getByText('No communications yet.').waitFor();

        await page.getByRole('tab', { name: 'Communications' }).click();
        await page.getByRole('button', { name: 'Send Email' }).click();
        const email = page.getByRole('dialog', { name: 'Send Email' });
        expect((await email.locator('#email-to').inputValue()) === 'family@example.com', 'the email is not addressed to the caller');
        await email.getByLabel('Subject').fill('Welcome to Carepath');
        await email.locator('#email-body').fill('We look forward to meeting your family.');
        await expectAccessible(page, 'send email dialog');
        await email.getByRole('button', { name: 'Send Email' }).click();
        await toast(page, 'Email sent successfully!').waitFor();
        await watched.getByText('Welcome to Carepath').waitFor();

        await page.getByRole('button', { name: 'Send SMS' }).click();
        const sms = page.getByRole('dialog', { name: 'Send SMS' });
        await sms.locator('#sms-message').fill('Reminder: assessment tomorrow at 10.');
        await sms.getByRole('button', { name: 'Send SMS' }).click();
        await toast(page, 'SMS sent successfully!').waitFor();
        await watched.getByText('Reminder: assessment tomorrow at 10.').waitFor();

        await page.getByRole('button', { name: 'Add Note' }).click();
        const note = page.getByRole('dialog', { name: 'Add Note' });
        await note.getByRole('button', { name: 'Add Note' }).click();
        await page.getByText('Please enter a note').waitFor();
        await expectAccessible(page, 'add note dialog');
        await note.locator('#note-content').fill('Family prefers morning calls.');
        await note.getByRole('button', { name: 'Add Note' }).click();
        await toast(page, 'Note added successfully!').waitFor();
        await watched.getByText('Family prefers morning calls.').waitFor();

        await page.getByRole('button', { name: 'Log Call' }).click();
        const call = page.getByRole('dialog', { name: 'Log Call' });
        await call.getByLabel('Call notes').fill('Discussed schedule.');
        await call.getByRole('button', { name: 'Log Call' }).click();
        await watched.getByText('Discussed schedule.').waitFor();
        await page.getByRole('list', { name: 'Communications' }).getByText('Discussed schedule.').waitFor();
        await expectAccessible(page, 'communications tab');
        await screenshot(page, 'client-communications');

        await page.getByRole('radio', { name: 'Internal Only' }).click();
        await page.getByRole('list', { name: 'Communications' }).getByText('Family prefers morning calls.').waitFor();
        await page.getByRole('list', { name: 'Communications' }).getByText('Welcome to Carepath').waitFor({ state: 'hidden' });

        const outbox = await page.request.get('/api/outbox');
        expect(outbox.ok(), `GET /api/outbox answered ${outbox.status()}`);
        const { items } = await outbox.json();
        expect(items.some((item) => item.kind === 'email' && item.subject === 'Welcome to Carepath'), 'the email is not in the outbox');
        expect(items.some((item) => item.kind === 'sms' && String(item.preview).includes('Reminder: assessment tomorrow')), 'the SMS is not in the outbox');
        await watcher.close();
      },
    },
    {
      name: 'an assessment completed from an intake moves the client to the assessment stage',
      as: admin,
      async run(page) {
        await open(page, '/');
        const name = await submitIntake(page, 'Assessed Client');
        await page.getByRole('dialog').getByRole('button', { name: /Schedule Assessment Now|Start Assessment|Open Assessment/ }).first().click();
        await page.waitForURL(/\/assessments\/new\?intake_id=/);
        await page.getByRole('heading', { name: 'Non-Medical Assessment Form' }).waitFor();
        expect((await page.getByLabel('Client Name').inputValue()) === name, 'the assessment was not pre-filled from the intake');
        await expectAccessible(page, 'assessment form');
        await screenshot(page, 'assessment');
        // The signed-in user is prefilled as the coordinator; emptied here.
        await page.getByLabel('Coordinator Name').fill('');
        await page.getByRole('button', { name: 'Save Assessment' }).click();
        await page.locator('#coordinatorName[aria-invalid="true"]').waitFor();
        await page.getByLabel('Coordinator Name').fill('Casey Coordinator');
        await page.getByRole('button', { name: 'Save Assessment' }).click();
        await page.locator('#recommendedHours[aria-invalid="true"]').waitFor();
        const recommended = page.getByRole('region', { name: 'Recommended Services & Schedule' });
        await recommended.getByRole('checkbox', { name: 'Companionship' }).check();
        await recommended.getByLabel('Recommended Hours per Week').fill('12');
        await recommended.getByRole('checkbox', { name: 'Monday' }).check();
        await recommended.getByRole('checkbox', { name: 'Thursday' }).check();
        await page.getByRole('button', { name: 'Save Assessment' }).click();
        await toast(page, 'Assessment Saved').waitFor();
        await page.getByRole('status').getByText('Status: Completed').waitFor();
        await page.waitForURL(/\/assessments\/new\?assessment_id=/);
        await openClient(page, name);
        await page.getByText('Assessment Complete').or(page.getByText(/Create Care Plan|Generate Care Plan/)).first().waitFor();
        await page.getByRole('tab', { name: 'Assessment' }).click();
        await page.getByRole('tabpanel').getByText('Completed').first().waitFor();
      },
    },
    {
      name: 'a staff user sees no delete buttons',
      as: staff,
      async run(page) {
        await open(page, '/assessments');
        await page.getByRole('heading', { name: 'Assessments' }).waitFor();
        const menu = page.getByRole('button', { name: /^Actions for / }).first();
        await menu.click();
        await page.getByRole('menu').waitFor();
        expect((await page.getByRole('menuitem', { name: 'Delete' }).count()) === 0, 'a staff user sees a Delete action');
        await page.keyboard.press('Escape');
        await expectAccessible(page, 'assessments as staff');
      },
    },
    {
      name: 'an admin soft-deletes an assessment',
      as: admin,
      async run(page) {
        await open(page, '/assessments');
        await page.getByRole('heading', { name: 'Assessments' }).waitFor();
        const firstRow = page.getByRole('row').nth(1);
        // The row's actions appear once the list has loaded (before that the row says Loading...).
        await firstRow.getByRole('button', { name: /^Actions for / }).waitFor();
        const client = (await firstRow.getByRole('cell').first().innerText()).trim();
        await firstRow.getByRole('button', { name: `Actions for ${client}` }).click();
        await page.getByRole('menuitem', { name: 'Delete' }).click();
        const confirm = page.getByRole('alertdialog');
        await confirm.getByText(`This will mark "${client}" as deleted. You can restore it later from the admin panel.`).waitFor();
        await expectAccessible(page, 'delete confirmation');
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await toast(page, 'Assessment Deleted').waitFor();
      },
    },
    {
      // The script is written into the page and allowed by its hash (a blocked script is a
      // console error, which fails any test); on a page the app's worker serves it runs as
      // the page is read, before any of the app's modules, so it is always the one asking.
      name: "the first-data script of a repeat visit's page asks for the clients list, and the list uses that answer",
      as: admin,
      async run(page) {
        await open(page, '/clients');
        await page.getByRole('cell').first().waitFor();
        await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
        await page.reload();
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
        await page.getByRole('cell').first().waitFor();
        const asked = await page.evaluate(() => {
          const address = (href) => {
            const url = new URL(href, location.href);
            return url.pathname + url.search;
          };
          return {
            preloads: [...document.querySelectorAll('link[rel="preload"][as="fetch"]')].map((link) => address(link.href)),
            requests: performance.getEntriesByType('resource').map((entry) => address(entry.name)),
          };
        });
        const isList = (href) => href === '/api/clients' || href.startsWith('/api/clients?');
        const list = asked.preloads.find(isList);
        expect(list, `the page's script named no clients list: ${asked.preloads.join(', ')}`);
        const times = asked.requests.filter(isList);
        expect(times.length === 1 && times[0] === list, `the list was asked ${times.length} times: ${times.join(', ')}`);
      },
    },
    {
      name: 'the clients list filters by stage and urgency and downloads a CSV',
      as: admin,
      async run(page) {
        await open(page, '/clients');
        await page.getByRole('heading', { name: 'All Clients' }).waitFor();
        await page.getByRole('cell').first().waitFor();
        // Each filter change is waited for by its answer: the table keeps the previous
        // rows on screen until the new ones arrive.
        const answered = (part) => page.waitForResponse((response) => response.url().includes('/api/clients?') && response.url().includes(part));
        const byStage = answered('stage=assessment');
        await page.getByLabel('Stage').selectOption('assessment').catch(async () => {
          await page.getByLabel('Stage').click();
          await page.getByRole('option', { name: 'Assessment' }).click();
        });
        await page.waitForURL(/filter=assessment/);
        await byStage;
        await page.waitForTimeout(300);
        const stages = await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
        expect(stages.length > 0, 'no clients in the assessment stage');
        expect(stages.every((text) => /Assessment/.test(text)), 'a row outside the assessment stage is listed');
        const byUrgency = answered('urgency=overdue');
        await page.getByRole('button', { name: /Overdue/ }).click();
        await byUrgency;
        await page.waitForTimeout(300);
        await expectAccessible(page, 'filtered clients');
        const shown = await page.locator('tbody tr').count();
        const download = page.waitForEvent('download');
        await page.getByRole('link', { name: 'Export to CSV' }).click();
        const file = await download;
        expect(/^clients_\d{4}-\d{2}-\d{2}\.csv$/.test(file.suggestedFilename()), `file name ${file.suggestedFilename()}`);
        const path = await file.path();
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(path, 'utf8');
        expect(text.startsWith('Client ID,Client Name'), `unexpected CSV header: ${text.slice(0, 60)}`);
        // The file holds the filtered list: assessment-stage clients only, as many as shown
        // (the demo has fewer overdue assessments than one page).
        const lines = text.trimEnd().split('\n').slice(1);
        expect(lines.length === shown, `${lines.length} exported rows for ${shown} listed`);
        expect(lines.every((line) => line.includes(',Assessment,')), 'an exported row outside the assessment stage');
        await page.getByLabel('Search clients').fill('zzzz-nobody');
        await page.getByText('No clients found').waitFor();
        expect(await page.getByRole('button', { name: 'Export to CSV' }).isDisabled(), 'Export is enabled on an empty list');
      },
    },
    {
      name: 'the sidebar collapses with Ctrl+B and becomes a drawer on a phone',
      as: admin,
      viewport: { width: 375, height: 740 },
      async run(page) {
        await open(page, '/');
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.getByRole('button', { name: 'Toggle sidebar' }).click();
        const drawer = page.getByRole('dialog');
        await drawer.getByRole('link', { name: 'Lead Intake' }).waitFor();
        await expectAccessible(page, 'mobile drawer');
        const width = await drawer.evaluate((element) => element.getBoundingClientRect().width);
        expect(width <= 375, `the drawer is wider than the phone: ${width}`);
        await drawer.getByRole('link', { name: 'Lead Intake' }).click();
        await page.waitForURL(/\/clients$/);
        await drawer.waitFor({ state: 'hidden' });
        await page.setViewportSize({ width: 1280, height: 800 });
        const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
        await sidebar.waitFor();
        await page.keyboard.press('Control+b');
        expect((await sidebar.getAttribute('data-state')) === 'collapsed', 'sidebar did not collapse');
        await page.reload();
        expect((await page.getByRole('complementary', { name: 'Sidebar' }).getAttribute('data-state')) === 'collapsed', 'collapse was not remembered');
      },
    },
    ...pipelineTests({ admin, staff }),
    ...signingTests({ admin, staff }),
  ];
}
