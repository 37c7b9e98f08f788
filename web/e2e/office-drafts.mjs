// Browser tests of what the office's templates change elsewhere: the default pricing
// template preselected on a new care plan, and a message template offered and used by
// AI drafting in a client's send dialog (the built-in writer drafts when no AI service is
// set up, as in these tests).
import { expect, expectAccessible } from './harness.mjs';

export function officeDraftTests({ admin }) {
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }
  const toast = (page, text) => page.locator('[data-sonner-toast]').getByText(text, { exact: true }).first();

  async function setDefault(page, name) {
    await open(page, '/settings/pricing');
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Pricing Template' });
    const toggle = edit.getByRole('switch', { name: 'Set as Default' });
    if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
    await edit.getByRole('button', { name: 'Update' }).click();
    await toast(page, 'Template updated successfully').waitFor();
  }

  return [
    {
      name: 'the default pricing template is preselected on a new care plan with a few non-personal services',
      as: admin,
      async run(page) {
        await open(page, '/settings/pricing');
        // An assessment whose plan falls in the spec's "Standard" case.
        const assessments = await (await page.request.get('/api/assessments?limit=200')).json();
        let assessmentId = null;
        for (const assessment of assessments.items) {
          const prefill = await (await page.request.get(`/api/care-plans/prefill?assessment_id=${assessment.id}`)).json();
          const services = prefill.plan?.services ?? [];
          if (services.length > 0 && services.length < 5 && !services.includes('personal_care')) {
            assessmentId = assessment.id;
            break;
          }
        }
        expect(assessmentId, 'the demo has no assessment with a few non-personal services');
        await setDefault(page, 'Personal Care Services');
        try {
          await open(page, `/care-plans/new?assessment_id=${assessmentId}`);
          const picker = page.locator('#pricing_template_id');
          await picker.waitFor();
          // The picker is drawn before the templates have loaded; the default is chosen once they have.
          await page
            .waitForFunction(() => (document.querySelector('#pricing_template_id')?.selectedOptions[0]?.textContent ?? '').startsWith('Personal Care Services'), null, { timeout: 5000 })
            .catch(() => undefined);
          const chosen = await picker.evaluate((select) => select.options[select.selectedIndex]?.textContent ?? '');
          expect(chosen.startsWith('Personal Care Services'), `preselected: ${chosen}`);
          // The quote prices the plan at that template's base rate.
          await page.getByLabel('Rate breakdown').getByText('$32.00/hour').waitFor();
          await expectAccessible(page, 'care plan with the default template');
        } finally {
          await setDefault(page, 'Standard Companion Care');
        }
      },
    },
    {
      name: 'a message template of the client stage is offered in the send dialog and drafts the stage\'s message without its prompt; an inactive one is not offered',
      as: admin,
      async run(page) {
        const clients = await (await page.request.get('/api/clients?stage=intake&limit=50')).json();
        // The list's rows carry no phone; the profile has it.
        let client;
        for (const item of clients.items) {
          const profile = await (await page.request.get(`/api/clients/${item.id}`)).json();
          if (profile.intake.caller_phone) {
            client = profile.intake;
            break;
          }
        }
        expect(client, 'the demo has no intake-stage client with a phone');
        const stamp = Date.now();
        const active = `Intake hello ${stamp}`;
        const inactive = `Intake retired ${stamp}`;
        await open(page, '/settings/templates');
        for (const [name, on] of [[active, true], [inactive, false]]) {
          await page.getByRole('button', { name: 'New Template' }).click();
          const dialog = page.getByRole('dialog', { name: 'New Template' });
          await dialog.getByLabel('Name').fill(name);
          await dialog.getByLabel('Message Type').selectOption('sms');
          await dialog.getByLabel('Stage').selectOption('intake');
          await dialog.getByLabel('AI Prompt Template').fill(`Tell the family about {client_name} and quote [CODE] ${stamp}.`);
          if (!on) await dialog.getByRole('switch', { name: 'Active' }).click();
          await dialog.getByRole('button', { name: 'Create Template' }).click();
          await toast(page, 'Template created successfully').waitFor();
        }
        await open(page, `/clients/${client.id}?tab=communications`);
        await page.getByRole('button', { name: 'Send SMS' }).first().click();
        const dialog = page.getByRole('dialog', { name: 'Send SMS' });
        const picker = dialog.getByLabel('Template');
        await picker.waitFor();
        const names = await picker.evaluate((select) => [...select.options].map((option) => option.textContent));
        expect(names.includes(active), `not offered: ${names.join(' | ')}`);
        expect(!names.includes(inactive), 'the inactive template is offered');
        await picker.selectOption({ label: active });
        await dialog.getByRole('button', { name: 'Generate' }).click();
        await toast(page, 'Message generated! You can edit it before sending.').waitFor();
        const message = await dialog.getByRole('textbox', { name: 'Message', exact: true }).inputValue();
        // The built-in writer writes the intake stage's text from the facts: the template's
        // prompt is guidance for an AI service and never reaches the family.
        expect(message.includes(client.client_full_name) && message.includes('in-home assessment'), `draft: ${message}`);
        expect(!message.includes(String(stamp)) && !/[[\]{}]/.test(message), `the prompt leaked: ${message}`);
        await expectAccessible(page, 'send SMS with a template');
      },
    },
  ];
}
