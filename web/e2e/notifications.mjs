// Browser tests of Settings → Notifications' texts: an administrator gives a coordinator
// a mobile number in Admin → Users (checked by the server), and the switches explain
// where texts and reply alerts go.
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

export function notificationTests({ admin }) {
  const toast = (page, text) => page.locator('[data-sonner-toast]').getByText(text, { exact: true }).first();
  async function open(page, path) {
    await page.goto(path);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  return [
    {
      name: "an administrator sets a coordinator's mobile for urgent texts; a wrong number is refused",
      as: admin,
      async run(page) {
        await open(page, '/admin');
        const row = page.getByRole('row').filter({ hasText: 'coordinator@carepath.test' });
        const name = (await row.getByRole('button', { name: /^Edit mobile of / }).getAttribute('aria-label')).replace('Edit mobile of ', '');
        await row.getByRole('button', { name: /^Edit mobile of / }).click();
        const dialog = page.getByRole('dialog', { name: `Mobile of ${name}` });
        await dialog.getByLabel('Mobile').fill('call me');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await page.locator('[data-sonner-toast]').getByText('Please enter a valid phone number').first().waitFor();
        await expectAccessible(page, 'mobile dialog');
        await dialog.getByLabel('Mobile').fill('(217) 555-0142');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await toast(page, `Mobile saved for ${name}`).waitFor();
        await row.getByText('(217) 555-0142').waitFor();
        const users = await (await page.request.get('/api/admin/users')).json();
        const saved = users.items.find((user) => user.email === 'coordinator@carepath.test');
        expect(saved.phone === '(217) 555-0142', `saved: ${saved.phone}`);

        await open(page, '/settings');
        await page.getByRole('tab', { name: 'Notifications' }).click();
        await page.getByText('the mobile number an administrator set in Admin → Users').waitFor();
        await page.getByText(`${new URL(page.url()).origin}/api/sms/replies`).waitFor();
      },
    },
    {
      name: 'the visit reminder and assessor summary times are set in Settings → Notifications',
      as: admin,
      async run(page) {
        await open(page, '/settings');
        await page.getByRole('tab', { name: 'Notifications' }).click();
        const reminder = page.getByLabel('Visit reminder time');
        const summary = page.getByLabel('Assessor summary time');
        await expectOnScreen(reminder, 'the visit reminder time');
        expect((await reminder.inputValue()) === '17:00', `the reminder time starts at 17:00, not ${await reminder.inputValue()}`);
        expect((await summary.inputValue()) === '07:00', `the summary time starts at 07:00, not ${await summary.inputValue()}`);
        await reminder.fill('18:30');
        await page.getByRole('tabpanel', { name: 'Notifications' }).getByRole('button', { name: 'Save Changes' }).click();
        await toast(page, 'Notification settings saved successfully').waitFor();
        await expectAccessible(page, 'Settings → Notifications');
        const stored = await (await page.request.get('/api/settings')).json();
        expect(stored.notifications.visit_reminder_time === '18:30', `saved: ${stored.notifications.visit_reminder_time}`);
        await page.reload();
        await page.getByRole('tab', { name: 'Notifications' }).click();
        expect((await page.getByLabel('Visit reminder time').inputValue()) === '18:30', 'the time stays after a reload');
        // Put it back for the tests after this one.
        await page.getByLabel('Visit reminder time').fill('17:00');
        await page.getByRole('tabpanel', { name: 'Notifications' }).getByRole('button', { name: 'Save Changes' }).click();
        await toast(page, 'Notification settings saved successfully').waitFor();
      },
    },
  ];
}
