// What a person sees of the app's feedback: toasts styled and inside the screen, a failed
// save's message beside the form, staff's read-only settings, no console error or CSP
// violation on any screen at desktop and phone sizes, and All Clients fitting a phone.
import { expect, expectAccessible, expectOnScreen, watchConsole } from './harness.mjs';
import { newestLink } from './signing.mjs';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function json(response, what) {
  expect(response.ok(), `${what} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/** The newest toast whose title is `title`, as the toaster shows it. */
const toastTitled = (page, title) => page.locator('[data-sonner-toast]').filter({ has: page.getByText(title, { exact: true }) }).first();

/** Opens a screen and waits until its heading is shown and its loads have settled. */
async function openScreen(page, path) {
  await page.goto(path);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.locator('main h1, h1').first().waitFor();
  await page.getByText(/^Loading/).first().waitFor({ state: 'hidden' }).catch(() => {});
  await page.waitForTimeout(300);
}

/** Every staff screen, with ids of demo records for the editors. */
async function staffScreens(page) {
  const first = async (path, what) => (await json(await page.request.get(path), what)).items[0]?.id;
  const client = await first('/api/clients?limit=1', 'clients');
  const assessment = await first('/api/assessments?limit=1', 'assessments');
  const carePlan = await first('/api/care-plans?limit=1', 'care plans');
  const contract = await first('/api/contracts?limit=1', 'contracts');
  return [
    '/',
    '/clients',
    `/clients/${client}`,
    '/intake',
    `/intake?id=${client}`,
    '/intakes',
    '/assessments',
    `/assessments/new?assessment_id=${assessment}`,
    '/care-plans',
    `/care-plans/new?care_plan_id=${carePlan}`,
    '/contracts',
    `/contracts/new?contract_id=${contract}`,
    '/contracts/new',
    '/contracts/settings',
    '/communications',
    '/analytics',
    '/settings',
    '/settings/pricing',
    '/settings/templates',
  ];
}

export function feedbackTests({ admin, staff }) {
  return [
    {
      name: 'feedback: a failing care plan save shows its toast on screen and the message beside the form',
      as: admin,
      async run(page) {
        const plans = await json(await page.request.get('/api/care-plans?status=draft&limit=50'), 'care plans');
        const plan = plans.items.at(-1);
        expect(plan, 'the demo has a draft care plan');
        await page.goto(`/care-plans/new?care_plan_id=${plan.id}`);
        await page.getByRole('heading', { name: 'Care Plan Proposal' }).waitFor();
        const email = page.getByLabel(/^Family Contact Email/);
        await email.fill('not an email address');
        await page.getByRole('button', { name: 'Save Care Plan' }).click();
        const toast = toastTitled(page, 'Error Saving Care Plan');
        await expectOnScreen(toast, 'the error toast', { background: true });
        const said = (await toast.locator('[data-description]').innerText()).trim();
        expect(said.length > 0, 'the toast says what went wrong');
        // The form's summary repeats the server's message, and the field says its own.
        const summary = page.getByRole('form', { name: 'Care plan form' }).getByRole('alert').filter({ hasText: said }).first();
        await summary.scrollIntoViewIfNeeded();
        await expectOnScreen(summary, 'the form error summary');
        const fieldError = page.locator('[data-field="family_contact_email"] [role="alert"]');
        await fieldError.scrollIntoViewIfNeeded();
        await expectOnScreen(fieldError, 'the email field message');
        await expectAccessible(page, 'care plan with a failed save');
      },
    },
    {
      name: 'feedback: a saved settings tab shows its toast on screen, at desktop and phone sizes',
      as: admin,
      async run(page) {
        for (const size of [DESKTOP, PHONE]) {
          await page.setViewportSize(size);
          await openScreen(page, '/settings');
          await page.getByRole('button', { name: 'Save Changes' }).first().click();
          await expectOnScreen(toastTitled(page, 'General settings saved successfully'), `the saved toast at ${size.width}px`, { background: true });
          await page.locator('[data-sonner-toast] [data-close-button]').first().click();
          await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
        }
      },
    },
    {
      name: 'feedback: staff see the admin-only settings read-only with a note and save the rest',
      as: staff,
      async run(page) {
        const before = await json(await page.request.get('/api/settings'), 'settings');
        expect(before.admin_only?.email?.includes('default_from'), 'the settings answer names the admin-only fields');
        await openScreen(page, '/settings');
        await page.getByRole('tab', { name: 'Email' }).click();
        for (const label of ['Default From', 'Reply-To', 'Default CC', 'Blind Copies (BCC)']) {
          const field = page.getByLabel(label, { exact: true });
          expect((await field.getAttribute('readonly')) !== null, `staff can edit ${label}`);
        }
        const note = page.locator('#default_from-hint');
        await expectOnScreen(note, 'the note under Default From');
        expect((await note.innerText()) === 'Only administrators can change this.', `the note says ${await note.innerText()}`);
        const signature = `Kind regards, the coordinators ${Date.now()}`;
        await page.getByLabel('Signature').fill(signature);
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await expectOnScreen(toastTitled(page, 'Email settings saved successfully'), 'the saved toast', { background: true });
        expect((await page.getByRole('alert').filter({ hasText: /administrator/ }).count()) === 0, 'the save was refused');
        const after = await json(await page.request.get('/api/settings'), 'settings');
        expect(after.email.signature === signature, `the stored signature is ${after.email.signature}`);
        expect(after.email.default_from === before.email.default_from, 'the sender changed');

        await page.getByRole('tab', { name: 'SMS' }).click();
        expect((await page.getByLabel('Default Sender Number').getAttribute('readonly')) !== null, 'staff can edit the sender number');
        await page.getByRole('tab', { name: 'Workflow' }).click();
        const linkDays = page.getByLabel('Family links work for (days)');
        await linkDays.waitFor();
        expect((await linkDays.getAttribute('readonly')) !== null, 'staff can edit the link lifetime');
        expect((await linkDays.inputValue()) === String(before.workflow.signing_link_days), 'the link lifetime shows the stored days');
        await expectAccessible(page, 'settings as staff');
      },
    },
    {
      name: 'feedback: an administrator sets how long family links work, within core bounds',
      as: admin,
      async run(page) {
        await openScreen(page, '/settings');
        await page.getByRole('tab', { name: 'Workflow' }).click();
        const linkDays = page.getByLabel('Family links work for (days)');
        expect((await linkDays.getAttribute('readonly')) === null, 'the administrator cannot edit the link lifetime');
        expect((await linkDays.getAttribute('max')) === '90' && (await linkDays.getAttribute('min')) === '1', 'the field carries the bounds of core');
        await linkDays.fill('91');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        const refused = page.getByRole('alert').filter({ hasText: 'Links must last between 1 and 90 days.' }).first();
        await expectOnScreen(refused, 'the bounds message');
        await linkDays.fill('21');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await expectOnScreen(toastTitled(page, 'Workflow settings saved successfully'), 'the saved toast', { background: true });
        await refused.waitFor({ state: 'detached' });
        const stored = await json(await page.request.get('/api/settings'), 'settings');
        expect(stored.workflow.signing_link_days === 21, `stored ${stored.workflow.signing_link_days}`);
        // Back to the default, for the tests after this one.
        await linkDays.fill('14');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await toastTitled(page, 'Workflow settings saved successfully').waitFor();
      },
    },
    {
      name: 'feedback: All Clients fits a phone: the table scrolls in its own box, the counts sit above the search',
      as: staff,
      viewport: PHONE,
      async run(page) {
        await openScreen(page, '/clients');
        await page.getByRole('cell').first().waitFor();
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
        expect(widths.page <= widths.screen, `the page is ${widths.page}px wide on a ${widths.screen}px screen`);
        const box = await page.getByRole('table', { name: 'Clients' }).evaluate((table) => {
          const scroller = table.parentElement;
          return { scrolls: scroller.scrollWidth > scroller.clientWidth, overflow: getComputedStyle(scroller).overflowX };
        });
        expect(box.overflow === 'auto' && box.scrolls, `the table's box: ${JSON.stringify(box)}`);
        const counts = page.getByRole('group', { name: 'Client counts' });
        for (const card of await counts.getByRole('button').all()) await expectOnScreen(card, `the ${await card.innerText()} count`);
        await expectOnScreen(page.getByLabel('Search clients'), 'the search box');
        await expectAccessible(page, 'clients on a phone');
      },
    },
    ...[DESKTOP, PHONE].map((size) => ({
      name: `feedback: no console error or CSP violation on any staff screen at ${size.width}x${size.height}`,
      as: staff,
      viewport: size,
      async run(page) {
        // The harness fails the test on any console error; this walks every screen and
        // opens the dialogs that lock scrolling with a <style> of their own.
        for (const path of await staffScreens(page)) await openScreen(page, path);
        await openScreen(page, '/clients');
        await page.keyboard.press('Control+k');
        await page.getByRole('dialog', { name: 'Search Clients' }).waitFor();
        await page.keyboard.press('Escape');
        if (size === PHONE) {
          await page.getByRole('button', { name: 'Toggle sidebar' }).click();
          await page.getByRole('button', { name: 'Close menu' }).click();
        }
        await openScreen(page, '/settings/pricing');
        await page.getByRole('button', { name: /New Template|Add Template/ }).first().click();
        await page.getByRole('dialog').waitFor();
        await page.keyboard.press('Escape');
        await page.waitForTimeout(300);
      },
    })),
    {
      name: 'feedback: no console error or CSP violation on the admin screen and the family pages, at both sizes',
      as: admin,
      async run(page) {
        const plans = await json(await page.request.get('/api/care-plans?status=draft&limit=50'), 'care plans');
        const plan = [...plans.items].reverse().find((item) => item.intake_id && item.family_contact_email);
        expect(plan, 'the demo has a draft care plan with a family contact');
        let sentAt = Date.now() - 1000;
        await json(await page.request.post(`/api/care-plans/${plan.id}/send`, { data: { to: 'family@example.test', body: 'Here is the proposal.', version: plan.version } }), 'sending the proposal');
        const approveLink = await newestLink('approve', sentAt);
        const preview = await json(await page.request.get(`/api/contracts/preview?care_plan_id=${plan.id}`), 'contract preview');
        const contract = await json(await page.request.post('/api/contracts', { data: { care_plan_id: plan.id, care_plan_version: preview.care_plan_version, content: preview.content } }), 'contract');
        sentAt = Date.now() - 1000;
        await json(await page.request.post(`/api/contracts/${contract.id}/send`, { data: { body: 'Please sign the agreement.', version: contract.version } }), 'sending the contract');
        const signLink = await newestLink('sign', sentAt);

        for (const size of [DESKTOP, PHONE]) {
          await page.setViewportSize(size);
          await openScreen(page, '/admin');
          const family = await page.context().browser().newContext({ baseURL: process.env.CAREPATH_URL, viewport: size });
          try {
            const problems = await watchConsole(family);
            const phone = await family.newPage();
            await phone.goto(approveLink);
            await phone.getByRole('heading', { name: 'Your Home Care Proposal' }).waitFor();
            await phone.goto(signLink);
            await phone.getByRole('heading', { name: 'Home Care Service Agreement' }).waitFor();
            await phone.getByTestId('contract-text').waitFor();
            await phone.waitForTimeout(300);
            expect(problems.length === 0, `the family pages at ${size.width}px logged:\n  ${problems.join('\n  ')}`);
          } finally {
            await family.close();
          }
        }
      },
    },
  ];
}
