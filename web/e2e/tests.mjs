// The browser tests. Each gets a fresh page; `signIn` opens a session with the
// credentials from CAREPATH_EMAIL / CAREPATH_PASSWORD.
import { expect, expectAccessible } from './harness.mjs';

export function createTests({ email, password }) {
  const haveUser = Boolean(email && password);
  const needsUser = haveUser ? undefined : 'set CAREPATH_EMAIL and CAREPATH_PASSWORD';

  async function signIn(page, path = '/') {
    await page.goto(path);
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').fill(email);
    await page.locator('#password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  return [
    {
      name: 'a signed-out visitor lands on the sign-in page and keeps the route',
      async run(page) {
        await page.goto('/clients?filter=intake');
        await page.waitForURL(/\/login\?next=/);
        expect(new URL(page.url()).searchParams.get('next') === '/clients?filter=intake', `next is ${page.url()}`);
        await page.getByRole('button', { name: 'Sign in with Magic Link' }).click();
        await page.getByText('Please enter your email address.').waitFor();
        await expectAccessible(page, 'sign-in');
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
      skip: needsUser,
      async run(page) {
        await signIn(page, '/clients');
        await page.waitForURL(/\/clients$/);
        await page.getByRole('heading', { name: 'All Clients' }).waitFor();
        await expectAccessible(page, 'clients');
      },
    },
    {
      name: 'the dashboard shows its cards and passes axe',
      skip: needsUser,
      async run(page) {
        await signIn(page, '/');
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.getByText('Next 7 days, plan your schedule effectively.').waitFor();
        for (const card of ['New Intakes', 'Pending Assessments', 'Active Care Plans', 'Awaiting Signatures']) await page.getByRole('link', { name: new RegExp(card) }).waitFor();
        await expectAccessible(page, 'dashboard');
      },
    },
    {
      name: 'keyboard shortcuts navigate but not while typing',
      skip: needsUser,
      async run(page) {
        await signIn(page, '/');
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.keyboard.press('a');
        await page.waitForURL(/\/assessments$/);
        await page.getByLabel('Search assessments').fill('ia');
        await page.waitForTimeout(300);
        expect(page.url().endsWith('/assessments'), `typing navigated to ${page.url()}`);
        await page.locator('body').click({ position: { x: 5, y: 200 } });
        await page.keyboard.press('Control+k');
        await page.getByRole('dialog', { name: 'Search Clients' }).waitFor();
        await page.getByText('Start typing to search clients').waitFor();
        await expectAccessible(page, 'search dialog');
        await page.keyboard.press('Escape');
        await page.keyboard.press('?');
        await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      },
    },
    {
      name: 'the intake form enforces its required fields',
      skip: needsUser,
      async run(page) {
        await signIn(page, '/intake');
        await page.getByRole('heading', { name: 'New Client Intake' }).waitFor();
        await expectAccessible(page, 'intake form');
        await page.getByRole('button', { name: 'Submit Intake' }).click();
        await page.getByText('Please fill in 3 required field(s) highlighted in red.').waitFor();
        const invalid = await page.locator('[aria-invalid="true"]').count();
        expect(invalid === 3, `expected 3 highlighted fields, saw ${invalid}`);
        await page.getByLabel('Caller Name').fill('Dana Caller');
        expect((await page.locator('[aria-invalid="true"]').count()) === 2, 'editing a field should clear its highlight');
        await page.getByLabel('Client is the caller').check();
        expect((await page.getByLabel('Client Full Name').inputValue()) === 'Dana Caller', 'client name copies the caller');
        expect(await page.getByLabel('Client Full Name').isDisabled(), 'client name is disabled when the client is the caller');
      },
    },
    {
      name: 'a submitted intake offers the next step and appears in the clients list',
      skip: needsUser,
      async run(page) {
        await signIn(page, '/intake');
        const name = `E2E Client ${Date.now()}`;
        await page.getByLabel('Staff Member Taking Call').fill('Sam Staff');
        await page.getByLabel('Caller Name').fill('Pat Caller');
        await page.getByLabel('Caller Phone').fill('555-0100');
        await page.getByLabel('Relationship to Client').fill('Daughter');
        await page.getByLabel('Client Full Name').fill(name);
        await page.getByLabel('Date of Birth').fill('1940-02-03');
        await page.getByLabel('Companionship').check();
        await page.getByRole('button', { name: 'Submit Intake' }).click();
        const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Intake Saved Successfully!' }));
        await dialog.getByText('What would you like to do next?').waitFor();
        await dialog.getByRole('button', { name: 'Return to Dashboard' }).click();
        await page.getByRole('heading', { name: 'Outreach Dashboard' }).waitFor();
        await page.goto('/clients');
        await page.getByRole('cell', { name, exact: true }).waitFor();
      },
    },
    {
      name: 'a note and a call land on the client timeline',
      skip: needsUser,
      async run(page) {
        await signIn(page, '/intake');
        const name = `Timeline Client ${Date.now()}`;
        await page.getByLabel('Staff Member Taking Call').fill('Sam Staff');
        await page.getByLabel('Caller Name').fill('Pat Caller');
        await page.getByLabel('Caller Phone').fill('555-0100');
        await page.getByLabel('Client Full Name').fill(name);
        await page.getByRole('button', { name: 'Submit Intake' }).click();
        await page.getByText('What would you like to do next?').waitFor();
        await page.goto('/clients');
        await page.getByRole('cell', { name, exact: true }).click();
        await page.getByRole('tab', { name: 'Communications' }).click();
        await page.getByText('No communications yet.').waitFor();
        await page.getByRole('button', { name: 'Add Note' }).click();
        const note = page.getByRole('dialog', { name: 'Add Note' });
        await note.getByRole('button', { name: 'Add Note' }).click();
        await page.getByText('Please enter a note').waitFor();
        await expectAccessible(page, 'add note dialog');
        await note.locator('#note-content').fill('Family prefers morning calls.');
        await note.getByRole('button', { name: 'Add Note' }).click();
        await page.getByText('Note added successfully!').waitFor();
        await page.getByRole('list', { name: 'Communications' }).getByText('Family prefers morning calls.').waitFor();
        await page.getByRole('button', { name: 'Log Call' }).click();
        const call = page.getByRole('dialog', { name: 'Log Call' });
        await call.getByLabel('Call notes').fill('Discussed schedule.');
        await call.getByRole('button', { name: 'Log Call' }).click();
        await page.getByRole('list', { name: 'Communications' }).getByText('Discussed schedule.').waitFor();
        await page.getByRole('radio', { name: 'Internal Only' }).click();
        await page.getByRole('list', { name: 'Communications' }).getByText('Family prefers morning calls.').waitFor();
      },
    },
    {
      name: 'the sidebar collapses with Ctrl+B and becomes a drawer on a phone',
      skip: needsUser,
      async run(page) {
        await signIn(page, '/');
        const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
        await sidebar.waitFor();
        await page.keyboard.press('Control+b');
        expect((await sidebar.getAttribute('data-state')) === 'collapsed', 'sidebar did not collapse');
        await page.reload();
        expect((await page.getByRole('complementary', { name: 'Sidebar' }).getAttribute('data-state')) === 'collapsed', 'collapse was not remembered');
        await page.setViewportSize({ width: 400, height: 800 });
        await page.getByRole('button', { name: 'Toggle sidebar' }).click();
        await page.getByRole('dialog').getByRole('link', { name: 'Lead Intake' }).click();
        await page.waitForURL(/\/clients$/);
      },
    },
  ];
}
