// Browser tests of assessment visits, as a new coordinator books one after an intake
// call: from the intake, tomorrow at 10:00 with an assessor; the client shows "Assessment
// Scheduled" on the intake, its profile, the dashboard and the Visits day and week views;
// moving and cancelling the visit update them, and the family's calendar invitations
// (REQUEST, then CANCEL) reach the outbox. Print Packet opens the visit's packet PDF.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, expectAccessible } from './harness.mjs';

/** The element is on screen: its box lies inside the window, not only in the page. */
async function expectInViewport(page, locator, label) {
  await locator.waitFor();
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  expect(box && size, `${label}: no box`);
  const inside = box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
  expect(inside, `${label} is not inside the window: ${JSON.stringify(box)} in ${JSON.stringify(size)}`);
}

/** YYYY-MM-DD of the browser's today plus `days`, as the app's date fields use it. */
async function dayFromToday(page, days) {
  return page.evaluate((offset) => {
    const date = new Date();
    date.setDate(date.getDate() + offset);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  }, days);
}

/** The outbox emails to `address` carrying a calendar with `method` (none without an outbox). */
async function invitationsTo(address, method) {
  const dir = process.env.CAREPATH_OUTBOX;
  if (!dir) return null;
  const names = (await readdir(dir)).filter((name) => name.endsWith('.eml'));
  const texts = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
  return texts.filter((text) => new RegExp(`^To: .*${address.replace('.', '\\.')}`, 'mi').test(text) && new RegExp(`text/calendar;[^\\r\\n]*method=${method}`, 'i').test(text.replace(/\r?\n\s+/g, ' ')));
}

export function visitTests({ staff }) {
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  return [
    {
      name: 'visits: a visit booked from an intake shows Assessment Scheduled everywhere; moving and cancelling it follow',
      as: staff,
      async run(page) {
        const stamp = Date.now();
        const client = `Visit Client ${stamp}`;
        const family = `family.${stamp}@example.test`;
        const created = await page.request.post('/api/intakes', {
          headers: { Origin: new URL(process.env.CAREPATH_URL).origin },
          data: {
            form: {
              staffMemberTakingCall: 'Coordinator',
              callerName: 'Grace Hopper',
              callerPhone: '(217) 555-0100',
              callerEmail: family,
              relationshipToClient: 'Daughter',
              clientFullName: client,
              servicesRequired: ['Companionship'],
              clientAddress: '12 Oak St',
              city: 'Springfield',
              state: 'IL',
              zipCode: '62701',
            },
          },
        });
        expect(created.ok(), `creating the intake answered ${created.status()}: ${await created.text()}`);
        const intake = await created.json();
        const tomorrow = await dayFromToday(page, 1);

        // From the intake: Schedule Assessment Visit, beside Schedule Assessment.
        await open(page, `/intake?intake_id=${intake.id}&view=true`);
        await page.getByRole('button', { name: 'Schedule Assessment Visit' }).first().click();
        const dialog = page.getByRole('dialog', { name: 'Schedule Assessment Visit' });
        await dialog.waitFor();
        const place = await dialog.getByRole('textbox', { name: 'Place' }).inputValue();
        expect(place === '12 Oak St, Springfield, IL 62701', `the place is prefilled with the client's address, not "${place}"`);
        // The staff list loads with the dialog; then the signed-in user is the one chosen.
        const assessor = dialog.getByRole('combobox', { name: 'Assessor' });
        await assessor.locator('option:checked:not([value=""])').waitFor({ state: 'attached' });
        expect((await assessor.inputValue()) !== '', 'the assessor is prefilled with the signed-in user');
        await dialog.getByLabel('Date').fill(tomorrow);
        await dialog.getByLabel('Start time').fill('10:00');
        await dialog.getByRole('combobox', { name: 'Expected length' }).selectOption('90');
        await dialog.getByRole('textbox', { name: 'Notes' }).fill('Ring twice; the side door, please');
        await expectAccessible(page, 'the Schedule Assessment Visit dialog');
        await dialog.getByRole('button', { name: 'Schedule Visit' }).click();
        await dialog.waitFor({ state: 'hidden' });

        const banner = page.getByText('Assessment Scheduled', { exact: true }).first();
        await expectInViewport(page, banner, 'Assessment Scheduled on the intake');
        const card = page.getByRole('listitem', { name: /^Visit / });
        await expectInViewport(page, card.getByText('10:00 AM – 11:30 AM'), "the intake's visit card");

        // The client's profile.
        await open(page, `/clients/${intake.id}`);
        await expectInViewport(page, page.getByText('Assessment Scheduled: In 1 day'), 'Assessment Scheduled on the profile');
        // Its Schedule Assessment Visit starts from the client's address too.
        await page.getByRole('button', { name: 'Schedule Assessment Visit' }).click();
        const fromProfile = page.getByRole('dialog', { name: 'Schedule Assessment Visit' });
        const profilePlace = fromProfile.getByRole('textbox', { name: 'Place' });
        await expectInViewport(page, profilePlace, 'the place on the profile dialog');
        const prefilled = await profilePlace.inputValue();
        expect(prefilled === '12 Oak St, Springfield, IL 62701', `the profile's dialog prefills the client's address, not "${prefilled}"`);
        await fromProfile.getByRole('button', { name: 'Cancel' }).click();
        await fromProfile.waitFor({ state: 'hidden' });

        // The dashboard's visits card (tomorrow is in "This week").
        await open(page, '/');
        const upcoming = page.getByRole('region', { name: 'Visits this week' });
        await expectInViewport(page, upcoming.getByRole('link', { name: client }), 'the visit on the dashboard');

        // The Visits screen: the sidebar entry, the week view, then the day view by keyboard.
        await page.getByRole('navigation', { name: 'Main Menu' }).getByRole('link', { name: 'Visits' }).click();
        await page.getByRole('heading', { name: 'Assessment Visits' }).waitFor();
        await page.getByRole('tab', { name: 'Week' }).click();
        await expectInViewport(page, page.getByRole('link', { name: client }), 'the visit in the week view');
        await page.getByRole('tab', { name: 'Day' }).click();
        await page.getByRole('button', { name: 'Today' }).click();
        await page.locator('h2').first().click();
        await page.keyboard.press('ArrowRight');
        await page.waitForURL((url) => url.searchParams.get('date') === tomorrow);
        const line = page.getByRole('link', { name: client });
        await expectInViewport(page, line, 'the visit in the day view');
        await expectAccessible(page, 'the Visits day view');

        // Print Packet, beside the visit's other actions, opens its packet in a new tab:
        // the PDF names the client and the place and carries the assessment worksheet.
        const printPacket = page.getByRole('button', { name: `Print Packet for visit with ${client}` });
        await expectInViewport(page, printPacket, 'Print Packet in the day view');
        const popupOpened = page.waitForEvent('popup');
        await printPacket.click();
        const popup = await popupOpened;
        const never = () => new Promise(() => {});
        // Chromium shows the PDF in its viewer, or downloads it where it has none.
        const shown = await Promise.race([
          popup.waitForURL(/\/packet\.pdf$/).then(() => popup.url(), never),
          popup.waitForEvent('download').then((download) => download.url(), never),
        ]);
        expect(/\/api\/visits\/[^/]+\/packet\.pdf$/.test(shown), `Print Packet opened ${shown}`);
        await popup.close();
        const packet = await page.request.get(shown);
        expect(packet.ok() && packet.headers()['content-type'] === 'application/pdf', `the packet answered ${packet.status()} ${packet.headers()['content-type']}`);
        const packetText = execFileSync('pdftotext', ['-', '-'], { input: await packet.body() })
          .toString()
          .replace(/\s+/g, ' ');
        for (const want of [client, '12 Oak St, Springfield, IL 62701', 'Ring twice; the side door, please', 'Assessment Worksheet', 'Activities of Daily Living (ADLs)']) {
          expect(packetText.includes(want), `the packet lacks "${want}"`);
        }

        // Reschedule to 2:00 PM.
        await page.getByRole('button', { name: `Reschedule visit with ${client}` }).click();
        const moving = page.getByRole('dialog', { name: 'Reschedule Assessment Visit' });
        await moving.getByLabel('Start time').fill('14:00');
        await moving.getByRole('button', { name: 'Reschedule Visit' }).click();
        await moving.waitFor({ state: 'hidden' });
        await expectInViewport(page, page.getByText('2:00 PM – 3:30 PM'), 'the moved visit');

        // Cancel with a reason: the reason is required.
        await page.getByRole('button', { name: `Cancel visit with ${client}` }).click();
        const cancelling = page.getByRole('dialog', { name: 'Cancel Assessment Visit' });
        await cancelling.getByRole('button', { name: 'Cancel Visit' }).click();
        await expectInViewport(page, cancelling.getByText('Please enter a reason'), 'the missing reason');
        await cancelling.getByRole('textbox', { name: 'Reason' }).fill('Family away that week');
        await cancelling.getByRole('button', { name: 'Cancel Visit' }).click();
        await cancelling.waitFor({ state: 'hidden' });
        await expectInViewport(page, page.getByText('Cancelled', { exact: true }), 'the cancelled visit');

        // A private calendar feed: made here, readable without a session, then revoked.
        await page.getByRole('button', { name: /^(Create|Replace) Feed Address$/ }).click();
        const address = page.getByRole('textbox', { name: /Feed address/ });
        await expectInViewport(page, address, 'the calendar feed address');
        const feedPath = new URL(await address.inputValue()).pathname;
        const feed = await page.context().browser().newContext({ baseURL: process.env.CAREPATH_URL });
        try {
          const answer = await feed.request.get(feedPath);
          expect(answer.ok() && (await answer.text()).includes('BEGIN:VCALENDAR'), `the feed answered ${answer.status()}`);
          await page.getByRole('button', { name: 'Revoke Feed' }).click();
          await page.getByRole('button', { name: 'Create Feed Address' }).waitFor();
          expect((await feed.request.get(feedPath)).status() === 404, 'a revoked feed still answers');
        } finally {
          await feed.close();
        }

        await open(page, `/clients/${intake.id}`);
        await page.getByText(/^New (Client|Intake):/).waitFor();
        expect((await page.getByText('Assessment Scheduled: In 1 day').count()) === 0, 'the client still shows Assessment Scheduled after the cancel');

        // What the family received: an invitation, then its cancellation.
        const requests = await invitationsTo(family, 'REQUEST');
        if (requests) {
          expect(requests.length === 2, `the family got ${requests.length} invitations (booked, moved)`);
          const cancels = await invitationsTo(family, 'CANCEL');
          expect(cancels.length === 1, `the family got ${cancels.length} cancellations`);
        }
      },
    },
  ];
}
