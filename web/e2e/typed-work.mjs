// Browser tests that typed work is never lost and that what is sent is what is shown:
// two tabs saving one intake, leaving a half-typed form (sidebar, shortcut), a reload of a
// new intake, and a care plan whose unsaved changes hold back print and send.
import { expect, expectAccessible } from './harness.mjs';

/** The element is on screen: its box lies inside the window, not only in the page. */
async function expectInViewport(page, locator, label) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  expect(box && size, `${label}: no box`);
  const inside = box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
  expect(inside, `${label} is not inside the window: ${JSON.stringify(box)} in ${JSON.stringify(size)}`);
}

export function typedWorkTests({ admin }) {
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  /** A submitted, open demo intake the test may change. */
  async function openIntake(page) {
    const answer = await page.request.get('/api/intakes?limit=50');
    expect(answer.ok(), `GET /api/intakes answered ${answer.status()}`);
    const { items } = await answer.json();
    const intake = items.find((item) => !item.is_draft && !item.position.archived);
    expect(intake, 'the demo has no submitted open intake');
    return intake;
  }

  /**
   * Two tabs open one record and both type into `field`; the first saves, which reaches the
   * second as a live update; the second save must show the conflict, keep its text and
   * leave the first one's value stored.
   */
  async function twoTabs(page, { path, api, heading, field, save, saved, stored }) {
    const second = await page.context().browser().newContext({ storageState: await page.context().storageState(), baseURL: process.env.CAREPATH_URL, viewport: { width: 1280, height: 800 } });
    try {
      const other = await second.newPage();
      other.setDefaultTimeout(10_000);
      await open(page, path);
      await open(other, path);
      for (const tab of [page, other]) await tab.getByRole('heading', { name: heading }).waitFor();
      const stamp = Date.now();
      const first = `First tab's note ${stamp}`;
      const later = `Second tab's note ${stamp}`;
      const text = (tab) => tab.getByRole('textbox', { name: field });
      await text(page).fill(first);
      await text(other).fill(later);

      const refreshed = other.waitForResponse((response) => new URL(response.url()).pathname === api && response.request().method() === 'GET');
      await page.getByRole('button', { name: save }).click();
      await saved(page);
      await refreshed;
      // The live update must not have replaced what the second tab typed.
      expect((await text(other).inputValue()) === later, "the live update changed the second tab's text");

      await other.getByRole('button', { name: save }).click();
      const banner = other.getByRole('alert').filter({ hasText: 'Your changes are still in the form.' });
      await expectInViewport(other, banner, 'the conflict banner');
      await expectInViewport(other, banner.getByRole('button', { name: 'Open latest version' }), 'Open latest version');
      expect((await text(other).inputValue()) === later, 'the second tab lost its text');
      await expectAccessible(other, `${heading} with a conflict`);

      const value = stored(await (await page.request.get(api)).json());
      expect(value === first, `the stored record has "${value}"`);
    } finally {
      await second.close();
    }
  }

  const leaveDialog = (page) => page.getByRole('alertdialog', { name: 'Leave without saving?' });

  return [
    {
      name: 'typed work: two tabs save one intake; the second sees a conflict and the first one is kept',
      as: admin,
      async run(page) {
        const intake = await openIntake(page);
        await twoTabs(page, {
          path: `/intake?intake_id=${intake.id}`,
          api: `/api/intakes/${intake.id}`,
          heading: 'Edit Intake',
          field: 'Additional Comments',
          save: 'Update Intake',
          saved: (tab) => tab.getByRole('dialog').getByText('What would you like to do next?').waitFor(),
          stored: (record) => record.form.additionalComments,
        });
      },
    },
    {
      name: 'typed work: two tabs save one assessment; the second sees a conflict and the first one is kept',
      as: admin,
      async run(page) {
        const answer = await page.request.get('/api/assessments?status=completed&limit=20');
        expect(answer.ok(), `GET /api/assessments answered ${answer.status()}`);
        const assessment = (await answer.json()).items.find((item) => item.status === 'completed');
        expect(assessment, 'the demo has no completed assessment');
        await twoTabs(page, {
          path: `/assessments/new?assessment_id=${assessment.id}`,
          api: `/api/assessments/${assessment.id}`,
          heading: 'Non-Medical Assessment Form',
          field: 'Additional Notes',
          save: 'Update Assessment',
          saved: (tab) => tab.locator('[data-sonner-toast]').getByText('Assessment Saved', { exact: true }).first().waitFor(),
          stored: (record) => record.form.additionalNotes,
        });
      },
    },
    {
      name: 'typed work: a half-typed intake asks before a sidebar link, and a letter shortcut does not leave it',
      as: admin,
      async run(page) {
        // Reached inside the app, so the browser's back button has an in-app page to go to.
        await open(page, '/clients');
        await page.getByRole('heading', { name: 'All Clients' }).waitFor();
        await page.keyboard.press('n');
        await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
        // The staff member taking the call is the signed-in user.
        const me = await (await page.request.get('/api/auth/me')).json();
        expect((await page.getByLabel('Staff Member Taking Call').inputValue()) === me.full_name, 'the staff member is not the signed-in user');
        await page.getByLabel('Caller Name').fill('Pat Typed');

        await page.getByRole('navigation', { name: 'Main Menu' }).getByRole('link', { name: 'Assessments & Care Plans' }).click();
        const dialog = leaveDialog(page);
        await expectInViewport(page, dialog, 'the leave dialog');
        await expectAccessible(page, 'the leave dialog');
        await dialog.getByRole('button', { name: 'Stay on this page' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(new URL(page.url()).pathname === '/intake', `left for ${page.url()}`);
        expect((await page.getByLabel('Caller Name').inputValue()) === 'Pat Typed', 'staying lost the text');

        // A letter pressed outside a field (the shortcut for Assessments) does nothing.
        await page.getByRole('heading', { name: 'New Client Intake' }).click();
        await page.keyboard.press('a');
        await page.waitForTimeout(500);
        expect(new URL(page.url()).pathname === '/intake', `the shortcut left for ${page.url()}`);
        expect(!(await dialog.isVisible()), 'the shortcut asked to leave');
        expect((await page.getByLabel('Caller Name').inputValue()) === 'Pat Typed', 'the shortcut lost the text');

        // Signing out asks too.
        await page.getByRole('button', { name: 'Sign out' }).click();
        await expectInViewport(page, dialog, 'the leave dialog on sign-out');
        await dialog.getByRole('button', { name: 'Stay on this page' }).click();
        expect(new URL(page.url()).pathname === '/intake', `sign-out left for ${page.url()}`);
        expect((await page.getByLabel('Caller Name').inputValue()) === 'Pat Typed', 'sign-out lost the text');

        // The browser's back button asks too; leaving on purpose goes.
        await page.goBack();
        await expectInViewport(page, dialog, 'the leave dialog after back');
        await dialog.getByRole('button', { name: 'Stay on this page' }).click();
        expect((await page.getByLabel('Caller Name').inputValue()) === 'Pat Typed', 'back lost the text');
        await page.getByRole('navigation', { name: 'Main Menu' }).getByRole('link', { name: 'Assessments & Care Plans' }).click();
        await dialog.getByRole('button', { name: 'Leave without saving' }).click();
        await page.waitForURL((url) => url.pathname === '/assessments');
      },
    },
    {
      name: 'typed work: updating an intake that has an assessment offers opening it, not scheduling another',
      as: admin,
      async run(page) {
        const answer = await page.request.get('/api/clients?stage=assessment&limit=5');
        expect(answer.ok(), `GET /api/clients answered ${answer.status()}`);
        const { items } = await answer.json();
        expect(items.length > 0, 'the demo has no client in the assessment stage');
        const intake = await (await page.request.get(`/api/intakes/${items[0].id}`)).json();
        expect(!intake.is_draft && intake.position.latest_assessment_id, 'the client has no submitted intake with an assessment');
        await open(page, `/intake?intake_id=${intake.id}`);
        await page.getByRole('heading', { name: 'Edit Intake' }).waitFor();
        await page.getByRole('button', { name: 'Update Intake' }).click();
        const dialog = page.getByRole('dialog', { name: 'Intake Saved Successfully!' });
        const openAssessment = dialog.getByRole('button', { name: 'Open Assessment' });
        await expectInViewport(page, openAssessment, 'Open Assessment');
        expect((await dialog.getByRole('button', { name: 'Schedule Assessment Now' }).count()) === 0, 'an assessed intake offers scheduling another');
        await openAssessment.click();
        await page.waitForURL((url) => url.pathname === '/assessments/new' && url.searchParams.get('assessment_id') === intake.position.latest_assessment_id);
      },
    },
    {
      name: 'typed work: a half-typed new intake survives a reload and is restored',
      as: admin,
      async run(page) {
        await open(page, '/intake');
        await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
        const name = `Reload Client ${Date.now()}`;
        await page.getByLabel('Client Full Name').click();
        await page.keyboard.type(name);
        await page.getByLabel('Caller Name').click();
        await page.keyboard.type('Pat Reload');

        // Reloading asks the browser's own question first.
        const asked = [];
        page.on('dialog', (question) => {
          asked.push(question.type());
          void question.accept();
        });
        await page.reload();
        await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
        expect(asked.includes('beforeunload'), `the reload did not ask: ${asked.join(', ')}`);

        const offer = page.getByRole('region', { name: 'Unsaved intake' });
        await expectInViewport(page, offer, 'the restore offer');
        await expectAccessible(page, 'the restore offer');
        expect((await page.getByLabel('Client Full Name').inputValue()) === '', 'the form was filled before Restore');
        await offer.getByRole('button', { name: 'Restore' }).click();
        await offer.waitFor({ state: 'hidden' });
        expect((await page.getByLabel('Client Full Name').inputValue()) === name, 'Restore did not bring the client name back');
        expect((await page.getByLabel('Caller Name').inputValue()) === 'Pat Reload', 'Restore did not bring the caller back');
      },
    },
    {
      name: 'typed work: a care plan with an unsaved pricing template holds back print, the proposal email and the contract',
      as: admin,
      async run(page) {
        const answer = await page.request.get('/api/care-plans?limit=200');
        expect(answer.ok(), `GET /api/care-plans answered ${answer.status()}`);
        const { items } = await answer.json();
        const reason = page.getByText('Save them first: Print, Email Marketing Proposal and Generate Contract use the saved care plan');
        const print = page.getByRole('button', { name: 'Print', exact: true });
        const emails = page.getByRole('button', { name: 'Email Marketing Proposal' });
        const picker = page.locator('#pricing_template_id');
        const expectHeldBack = async (label) => {
          await expectInViewport(page, reason, `${label}: the reason print and send wait`);
          expect(!(await print.isEnabled()), `${label}: Print still works with unsaved changes`);
          const buttons = await emails.all();
          expect(buttons.length === 2, `${label}: ${buttons.length} email buttons`);
          for (const button of buttons) expect(!(await button.isEnabled()), `${label}: Email Marketing Proposal still works with unsaved changes`);
        };

        // A sent plan, unchanged: print and email act on it. A template chosen, unsaved: they wait.
        const sent = items.find((item) => item.status === 'sent' && !item.contract_id);
        expect(sent, 'the demo has no sent care plan without a contract');
        await open(page, `/care-plans/new?care_plan_id=${sent.id}`);
        await page.getByRole('heading', { name: 'Care Plan Proposal' }).waitFor();
        await page.waitForFunction(() => document.querySelectorAll('#pricing_template_id option').length > 2);
        expect(await print.isEnabled(), 'Print is off on an unchanged plan');
        expect(!(await reason.isVisible()), 'an unchanged plan says it has unsaved changes');
        const stored = await picker.inputValue();
        const other = await picker.evaluate((select) => [...select.options].find((option) => option.value && option.value !== select.value)?.value ?? '');
        await picker.selectOption(other);
        await expectHeldBack('a changed template');
        const contract = page.getByRole('button', { name: 'Generate Contract' });
        expect(!(await contract.isEnabled()), 'Generate Contract still works with unsaved changes');
        await expectAccessible(page, 'care plan with unsaved changes');
        // The stored template and rate again: nothing is unsaved.
        await picker.selectOption(stored);
        await page.getByLabel('Hourly Rate ($)').fill(String(sent.hourly_rate));
        await reason.waitFor({ state: 'hidden' });
        expect(await print.isEnabled(), 'Print stays off once the form matches the stored plan');

        // A draft from "Generate Care Plan" shows the suggested template's rate on top of the
        // stored plan: it is unsaved from the start.
        const generated = items.find((item) => item.status === 'draft' && !item.pricing_template_id && item.assessment_id);
        expect(generated, 'the demo has no generated draft without a pricing template');
        await open(page, `/care-plans/new?care_plan_id=${generated.id}`);
        await page.getByRole('heading', { name: 'Care Plan Proposal' }).waitFor();
        await page.waitForFunction(() => document.querySelectorAll('#pricing_template_id option').length > 2);
        expect((await picker.inputValue()) !== '', 'no template was suggested');
        await expectHeldBack('a suggested template');
      },
    },
  ];
}
