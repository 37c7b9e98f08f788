// Browser tests of the office manager's screens: settings, pricing and message templates,
// the communications hub with its outbox, analytics and the admin panel.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

async function screenshot(page, name) {
  if (!process.env.E2E_SCREENSHOTS_DOCS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

/** A call to the API from inside the page, so the browser sends the session and the Origin. */
async function apiCall(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

/** A 48 x 16 blue PNG. */
const LOGO_PNG = 'iVBORw0KGgoAAAANSUhEUgAAADAAAAAQCAIAAADfzGvmAAAAJElEQVR42mMQiVo1qBDDqINGHTTqoFEHjTpo1EGjDhp1EH0RAGYDSC7X13R4AAAAAElFTkSuQmCC';

export function officeTests({ admin, staff }) {
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }
  const toast = (page, text) => page.locator('[data-sonner-toast]').getByText(text, { exact: true }).first();

  return [
    {
      name: 'a new company name in Settings is printed on the next PDF',
      as: admin,
      async run(page) {
        await open(page, '/settings');
        await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
        await expectAccessible(page, 'settings');
        await screenshot(page, 'settings');
        const company = `Lakeside Home Care ${Date.now()}`;
        await page.getByLabel('Company Name').fill(company);
        await page.getByLabel('Contact Phone').fill('(217) 555-0199');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await toast(page, 'General settings saved successfully').waitFor();
        const clients = await (await page.request.get('/api/clients?limit=1')).json();
        const pdf = await page.request.get(`/api/intakes/${clients.items[0].id}/pdf`);
        expect(pdf.ok(), `the PDF answered ${pdf.status()}`);
        const text = execFileSync('pdftotext', ['-', '-'], { input: await pdf.body() }).toString();
        expect(text.includes(company), `the PDF does not name ${company}`);
        expect(text.includes('(217) 555-0199'), 'the PDF does not carry the contact phone');
      },
    },
    {
      name: 'reply-to and blind copies from Settings are in the next outbox email, which opens from the hub',
      as: admin,
      async run(page) {
        await open(page, '/settings');
        await page.getByRole('tab', { name: 'Email' }).click();
        await page.getByLabel('Reply-To').fill('desk@lakeside.test');
        await page.getByLabel('Blind Copies (BCC)').fill('audit@lakeside.test, records@lakeside.test');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await toast(page, 'Email settings saved successfully').waitFor();
        const subject = `Outbox check ${Date.now()}`;
        const sent = await apiCall(page, 'POST', '/api/communications/email', { to: 'family@example.com', subject, body: 'Hello from the office.', attachments: [] });
        expect(sent.status === 200 && sent.body.status === 'sent', `the email was not sent: ${JSON.stringify(sent)}`);
        const { items } = await (await page.request.get('/api/outbox')).json();
        const entry = items.find((item) => item.subject === subject);
        expect(entry, 'the email is not in the outbox');
        const message = await (await page.request.get(`/api/outbox/${entry.file_name}`)).json();
        const header = (name) => message.headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';
        expect(header('reply-to').includes('desk@lakeside.test'), `Reply-To is ${header('reply-to')}`);
        // Blind copies travel in the envelope, which the outbox file records on its first line.
        expect(header('x-envelope-to').includes('audit@lakeside.test') && header('x-envelope-to').includes('records@lakeside.test'), `the envelope is ${header('x-envelope-to')}`);
        expect(header('bcc') === '', 'the blind copies show in the message headers');
        const outside = await page.request.get('/api/outbox/..%2Fdemo.db');
        expect(outside.status() === 404, `a path outside the outbox answered ${outside.status()}`);

        await open(page, '/communications');
        await page.getByRole('tab', { name: 'Outbox' }).click();
        await page.getByRole('cell', { name: subject }).click();
        const dialog = page.getByRole('dialog', { name: subject });
        await dialog.getByText('audit@lakeside.test', { exact: false }).waitFor();
        await expectAccessible(page, 'outbox message');
      },
    },
    {
      name: 'the hub filters by type and search',
      as: admin,
      async run(page) {
        await open(page, '/communications');
        await page.getByRole('heading', { name: 'Communication Hub' }).waitFor();
        await page.getByRole('list', { name: 'Communications' }).waitFor();
        await expectAccessible(page, 'communications hub');
        await screenshot(page, 'communications-hub');
        // Listen before choosing: the filtered page can answer before a late listener starts.
        const filtered = page.waitForResponse((response) => response.url().includes('/api/communications/hub') && response.url().includes('type=sms'));
        await page.getByLabel('Type').selectOption('sms');
        await filtered;
        const items = page.getByRole('list', { name: 'Communications' }).getByRole('listitem');
        await items.first().waitFor();
        const labels = await items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''));
        expect(labels.length > 0 && labels.every((label) => label.startsWith('SMS')), `not only SMS: ${labels.join(' | ')}`);
        await page.getByLabel('Search communications').fill('zzzz-nothing-matches');
        await page.getByText('No communications found').waitFor();
      },
    },
    {
      name: 'a pricing template made default is the only default, and the holiday policy lists six dated holidays',
      as: admin,
      async run(page) {
        await open(page, '/settings/pricing');
        await page.getByRole('heading', { name: 'Holiday Policy' }).waitFor();
        for (const holiday of ["New Year's Day", 'Memorial Day', 'Independence Day', 'Labor Day', 'Thanksgiving Day', 'Christmas Day']) {
          await page.getByText(holiday, { exact: true }).waitFor();
        }
        await page.getByRole('region', { name: 'Standard Companion Care' }).waitFor();
        await expectAccessible(page, 'pricing templates');
        await screenshot(page, 'pricing-templates');
        await page.getByRole('button', { name: 'Add New Template' }).click();
        const dialog = page.getByRole('dialog', { name: 'New Pricing Template' });
        await dialog.getByRole('button', { name: 'Create' }).click();
        await dialog.getByText('Please fill in template name and base rate').waitFor();
        const name = `Weekend Plus ${Date.now()}`;
        await dialog.getByLabel('Template Name').fill(name);
        await dialog.getByLabel('Base Hourly Rate ($)').fill('30.50');
        await dialog.getByLabel('Weekend Premium ($)').fill('3');
        await dialog.getByRole('switch', { name: 'Set as Default' }).click();
        await dialog.getByRole('button', { name: 'Create' }).click();
        await toast(page, 'Template created successfully').waitFor();
        await page.getByRole('region', { name }).getByText('Default', { exact: true }).waitFor();
        const { items } = await (await page.request.get('/api/pricing-templates')).json();
        const defaults = items.filter((template) => template.is_default).map((template) => template.name);
        expect(defaults.length === 1 && defaults[0] === name, `defaults: ${defaults.join(', ')}`);
        // Put the spec's default back for the other tests.
        await page.getByRole('button', { name: 'Edit Standard Companion Care' }).click();
        const edit = page.getByRole('dialog', { name: 'Edit Pricing Template' });
        await edit.getByRole('switch', { name: 'Set as Default' }).click();
        await edit.getByRole('button', { name: 'Update' }).click();
        await toast(page, 'Template updated successfully').waitFor();
      },
    },
    {
      name: 'a message template is created, listed with its badges and deleted after the confirm',
      as: admin,
      async run(page) {
        await open(page, '/settings/templates');
        await page.getByRole('heading', { name: 'Message Templates' }).waitFor();
        await page.getByRole('button', { name: 'New Template' }).click();
        const dialog = page.getByRole('dialog', { name: 'New Template' });
        await dialog.getByRole('button', { name: 'Create Template' }).click();
        await dialog.getByText('Please fill in required fields').waitFor();
        const name = `Check-in ${Date.now()}`;
        await dialog.getByLabel('Name').fill(name);
        await dialog.getByLabel('Message Type').selectOption('sms');
        await dialog.getByLabel('Stage').selectOption('intake');
        await dialog.getByLabel('AI Prompt Template').fill('Write a friendly check-in text to {clientName} about their first visit.');
        await dialog.getByRole('button', { name: 'Create Template' }).click();
        await toast(page, 'Template created successfully').waitFor();
        const card = page.getByRole('region', { name });
        await card.getByText('SMS', { exact: true }).waitFor();
        await card.getByText('Intake', { exact: true }).waitFor();
        await expectAccessible(page, 'message templates');
        await screenshot(page, 'message-templates');
        page.once('dialog', (confirm) => {
          expect(confirm.message() === 'Are you sure you want to delete this template?', confirm.message());
          void confirm.accept();
        });
        await card.getByRole('button', { name: `Delete ${name}` }).click();
        await toast(page, 'Template deleted successfully').waitFor();
        await card.waitFor({ state: 'detached' });
      },
    },
    {
      name: 'a new contract template version is used by the next contract preview',
      as: admin,
      async run(page) {
        await open(page, '/contracts/settings');
        await page.getByRole('heading', { name: 'Contract Template' }).waitFor();
        await page.getByText('use [VARIABLE_NAME] placeholders', { exact: false }).waitFor();
        await expectAccessible(page, 'contract template');
        const marker = `Visits begin on [DATE] ${Date.now()}`;
        const content = page.getByLabel('Content').last();
        await content.fill(`${await content.inputValue()}\n${marker}`);
        await page.getByRole('button', { name: 'Versions' }).click();
        await page.getByRole('dialog', { name: 'Template Versions' }).getByRole('button', { name: 'Create New Version' }).click();
        await page.locator('[data-sonner-toast]').getByText(/^Version .* created$/).first().waitFor();
        const sendable = await (await page.request.get('/api/care-plans/sendable')).json();
        expect(sendable.items.length > 0, 'the demo has no sendable care plan');
        const preview = await (await page.request.get(`/api/contracts/preview?care_plan_id=${sendable.items[0].id}`)).json();
        expect(String(preview.content).includes(marker.split(' [DATE] ')[1]), 'the preview does not use the new version');
      },
    },
    {
      name: 'a deleted contract is restored from the trash',
      as: admin,
      async run(page) {
        await open(page, '/admin');
        const contracts = await (await page.request.get('/api/contracts')).json();
        const contract = contracts.items[0];
        expect(contract, 'the demo has no contract');
        const deleted = await apiCall(page, 'DELETE', `/api/contracts/${contract.id}`);
        expect(deleted.status < 300, `delete answered ${deleted.status}`);
        await page.reload();
        await page.getByRole('heading', { name: 'Trash' }).waitFor();
        const restore = page.getByRole('button', { name: `Restore Contract of ${contract.client_name}` }).first();
        await restore.waitFor();
        await expectAccessible(page, 'admin');
        await screenshot(page, 'admin');
        await restore.click();
        await toast(page, `Contract of ${contract.client_name} restored`).waitFor();
        const after = await (await page.request.get(`/api/contracts/${contract.id}`)).json();
        expect(!after.deleted_at, 'the contract is still deleted');
      },
    },
    {
      name: 'an administrator uploads a logo: a wrong file shows why, the logo shows in Settings and on the next PDF, and can be removed',
      as: admin,
      async run(page) {
        await open(page, '/settings');
        await page.getByRole('button', { name: /^(Upload|Replace) Logo$/ }).waitFor();
        const input = page.getByLabel('Logo file (PNG or JPEG)');
        await input.setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a not really') });
        const problem = page.getByRole('alert').filter({ hasText: 'The logo must be a PNG or JPEG image.' });
        await problem.waitFor();
        expect(await problem.isVisible(), 'the logo message is not visible');
        await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(LOGO_PNG, 'base64') });
        await toast(page, 'Logo saved').waitFor();
        const shown = page.getByRole('img', { name: /logo$/ });
        await shown.waitFor();
        expect(await shown.evaluate((img) => img.complete && img.naturalWidth === 48), 'the logo picture did not load');
        await expectAccessible(page, 'settings with a logo');
        const clients = await (await page.request.get('/api/clients?limit=1')).json();
        const pdf = await page.request.get(`/api/intakes/${clients.items[0].id}/pdf`);
        expect(pdf.ok(), `the PDF answered ${pdf.status()}`);
        const file = join(mkdtempSync(join(tmpdir(), 'logo-')), 'intake.pdf');
        writeFileSync(file, await pdf.body());
        const images = execFileSync('pdfimages', ['-list', file]).toString();
        expect(/\b48\s+16\b/.test(images), `the PDF carries no 48 x 16 logo:\n${images}`);
        await page.getByRole('button', { name: 'Remove Logo' }).click();
        await toast(page, 'Logo removed').waitFor();
        await page.getByRole('button', { name: 'Upload Logo' }).waitFor();
      },
    },
    {
      name: 'staff see no admin link and the API refuses them the admin panel',
      as: staff,
      async run(page) {
        await open(page, '/');
        await page.getByRole('link', { name: 'Settings' }).waitFor();
        expect((await page.getByRole('link', { name: 'Admin' }).count()) === 0, 'staff see the Admin link');
        for (const path of ['/api/admin/trash', '/api/admin/users']) {
          const response = await page.request.get(path);
          expect(response.status() === 403, `${path} answered ${response.status()}`);
        }
        const restore = await apiCall(page, 'POST', '/api/contracts/00000000-0000-7000-8000-000000000000/restore', {});
        expect(restore.status === 403, `restore answered ${restore.status}`);
        await open(page, '/settings');
        await page.getByRole('tab', { name: 'Email' }).click();
        expect(await page.getByLabel('Reply-To').getAttribute('readonly') !== null, 'staff can edit Reply-To');
      },
    },
    {
      name: 'analytics shows the funnel with a table and a CSV download',
      as: admin,
      async run(page) {
        await open(page, '/analytics');
        await page.getByRole('heading', { name: 'Funnel', exact: true }).waitFor();
        await expectAccessible(page, 'analytics');
        await screenshot(page, 'analytics');
        const funnel = page.getByRole('region', { name: 'Funnel' });
        // The chart a person sees: a bar per step, drawn at its height, with the value axis.
        const chart = funnel.getByRole('img', { name: 'Funnel chart; use Table for the numbers' });
        await chart.scrollIntoViewIfNeeded();
        await expectOnScreen(chart.locator('svg.chart'), 'the funnel chart');
        const bars = await chart.locator('svg.chart rect').evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('height'))));
        expect(bars.length === 5 && bars.every((height) => height >= 0) && bars.some((height) => height > 0), `funnel bars ${JSON.stringify(bars)}`);
        const names = await chart.locator('svg.chart rect title').allTextContents();
        expect(names[0]?.startsWith('Intake: Clients '), `funnel bar names ${JSON.stringify(names)}`);
        await funnel.getByRole('button', { name: 'Table' }).click();
        await funnel.getByRole('columnheader', { name: 'Conversion from previous step' }).waitFor();
        const download = page.waitForEvent('download');
        await funnel.getByRole('button', { name: 'Download Funnel as CSV' }).click();
        const file = await download;
        expect(file.suggestedFilename().startsWith('funnel_'), file.suggestedFilename());
      },
    },
  ];
}
