// Browser tests of the hand-off to care, as a coordinator starts care for a client whose
// contract was signed: the profile's Start of Care card shows the agency's checklist;
// ticking an item shows who and when (and a toast); the hand-off downloads as CSV with
// the rate that was signed. In Settings, the checklist is edited on the Workflow tab.
import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

export function handoffTests({ staff }) {
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }
  const toast = (page, text) => page.locator('[data-sonner-toast]').getByText(text, { exact: true }).first();

  return [
    {
      name: 'handoff: a signed client’s Start of Care card ticks an item with who and when, and downloads the signed rate',
      as: staff,
      async run(page) {
        await open(page, '/');
        const contracts = await (await page.request.get('/api/contracts?status=signed')).json();
        const contract = contracts.items.find((item) => item.intake_id);
        expect(contract, 'the demo agency has no signed client');
        const checklist = await (await page.request.get(`/api/clients/${contract.intake_id}/start-of-care`)).json();
        const item = checklist.items.find((entry) => !entry.done);
        expect(item, 'every item of the signed client’s checklist is done already');

        await open(page, `/clients/${contract.intake_id}`);
        const card = page.getByRole('region', { name: 'Start of Care' });
        await expectOnScreen(card.getByRole('heading', { name: 'Start of Care' }), 'the Start of Care card');
        const box = card.getByRole('checkbox', { name: item.label, exact: true });
        await expectOnScreen(box, `the ${item.label} item`);
        await expectAccessible(page, 'the client profile with its Start of Care card');

        await box.check();
        await expectOnScreen(toast(page, `${item.label} marked done`), 'the toast');
        const who = card.getByRole('list', { name: 'Start-of-care checklist' }).getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: item.label, exact: true }) }).getByText(/^Done by Jordan Lee on /);
        await expectOnScreen(who, 'who ticked it and when');
        expect(await box.isChecked(), 'the item is not ticked');
        await expectAccessible(page, 'the ticked checklist');

        // The download carries the rate of the contract as signed.
        const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('link', { name: 'Download hand-off (CSV)' }).click()]);
        const csv = await readFile(await download.path(), 'utf8');
        const [header, row] = csv.trim().split('\n');
        expect(header.startsWith('Client ID,Contract ID,Signed At,Client Name,'), `the CSV header is ${header}`);
        expect(row.startsWith(`${contract.intake_id},${contract.id},`), `the row is ${row}`);
        const rate = contract.pricing_details.hourly_rate.toFixed(2);
        expect(row.includes(`,${rate},`), `the row has no rate ${rate}: ${row}`);
        const json = await (await page.request.get(`/api/clients/${contract.intake_id}/handoff`)).json();
        expect(json.hourly_rate === contract.pricing_details.hourly_rate, `the JSON rate is ${json.hourly_rate}`);

        // Unticked again, so the test can run again on the same agency.
        await box.uncheck();
        await expectOnScreen(toast(page, `${item.label} marked not done`), 'the second toast');
      },
    },
    {
      name: 'handoff: the agency’s start-of-care checklist is edited in Settings → Workflow',
      as: staff,
      async run(page) {
        await open(page, '/settings');
        await page.getByRole('tab', { name: 'Workflow' }).click();
        const legend = page.getByText(/^Start-of-care checklist \(\d+ items?\)$/);
        await legend.scrollIntoViewIfNeeded();
        await expectOnScreen(legend, 'the checklist editor');
        await legend.click();
        const items = page.getByRole('group', { name: 'Start-of-care checklist' }).getByRole('textbox');
        const before = await items.count();
        await page.getByRole('button', { name: 'Add item' }).click();
        const added = items.nth(before);
        await added.fill(`Keys collected ${Date.now()}`);
        await added.scrollIntoViewIfNeeded();
        await expectOnScreen(added, 'the new item');
        await expectAccessible(page, 'the Workflow tab with the checklist');
        const form = page.locator('form').filter({ has: legend });
        await form.getByRole('button', { name: 'Save Changes' }).click();
        await expectOnScreen(toast(page, 'Workflow settings saved successfully'), 'the saved toast');
        const settings = await (await page.request.get('/api/settings')).json();
        expect(settings.workflow.start_of_care_checklist.length === before + 1, `the checklist holds ${settings.workflow.start_of_care_checklist.length} items`);

        // Removed again, leaving the agency's list as it was.
        await page.getByRole('button', { name: /^Remove Keys collected/ }).click();
        await form.getByRole('button', { name: 'Save Changes' }).click();
        await expectOnScreen(toast(page, 'Workflow settings saved successfully'), 'the second saved toast');
      },
    },
  ];
}
