// Browser tests of a coordinator's Today: their overdue follow-up, today's visit and a
// task due today are listed (and a colleague's follow-up is not), most late first, on
// screen; snoozing the follow-up, marking the task done and a task added meanwhile move
// the rows without a reload. The dashboard's first card is the same queue.
import { execFileSync } from 'node:child_process';
import { expect, expectAccessible, expectOnScreen } from './harness.mjs';

/** YYYY-MM-DD of the browser's today plus `days`. */
async function dayFromToday(page, days) {
  return page.evaluate((offset) => {
    const date = new Date();
    date.setDate(date.getDate() + offset);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  }, days);
}

/**
 * Waits for the next day when fewer than two minutes of today are left: the test books a
 * visit at 23:59 today, and a visit in the past is refused.
 */
async function awayFromMidnight(page) {
  const wait = await page.evaluate(() => {
    const now = new Date();
    const left = 24 * 3600 - (now.getHours() * 3600 + now.getMinutes() * 60 + now.getSeconds());
    return left <= 120 ? (left + 5) * 1000 : 0;
  });
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** The queue rows on screen whose client name carries `stamp`, as "title for client". */
async function rowsOf(page, stamp) {
  const labels = await page.getByRole('list', { name: 'Queue' }).getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
  return labels.filter((label) => label.includes(stamp));
}

/** Waits until the rows carrying `stamp` are `expected` (in order). */
async function expectRows(page, stamp, expected, label) {
  const deadline = Date.now() + 8000;
  let seen = [];
  while (Date.now() < deadline) {
    seen = await rowsOf(page, stamp);
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    await page.waitForTimeout(150);
  }
  throw new Error(`${label}: expected ${JSON.stringify(expected)}, saw ${JSON.stringify(seen)}`);
}

export function queueTests({ staff }) {
  return [
    {
      name: 'queue: Today lists exactly my overdue follow-up, today’s visit and a due task; snooze, done and a new task move rows live',
      as: staff,
      async run(page) {
        expect(process.env.CAREPATH_DB, 'CAREPATH_DB names the server’s database');
        const origin = { Origin: new URL(process.env.CAREPATH_URL).origin };
        await awayFromMidnight(page);
        const stamp = String(Date.now());
        const today = await dayFromToday(page, 0);
        const tomorrow = await dayFromToday(page, 1);
        const users = await (await page.request.get('/api/users')).json();
        const colleague = users.items.find((user) => user.email !== staff.email);
        const me = await (await page.request.get('/api/auth/me')).json();
        const myId = (me.user ?? me).id;
        const form = (name) => ({
          staffMemberTakingCall: 'Coordinator',
          callerName: 'Grace Hopper',
          callerPhone: '(217) 555-0188',
          relationshipToClient: 'Daughter',
          clientFullName: name,
          servicesRequired: ['Companionship'],
          nextFollowUpDate: today,
          nextFollowUpTime: '23:59',
        });
        const create = async (name, ownerId) => {
          const response = await page.request.post('/api/intakes', { headers: origin, data: { form: form(name), ...(ownerId ? { owner_id: ownerId } : {}) } });
          expect(response.ok(), `creating ${name} answered ${response.status()}: ${await response.text()}`);
          return (await response.json()).id;
        };
        const fay = await create(`Fay ${stamp}`);
        const abe = await create(`Abe ${stamp}`, colleague.id);
        const vera = await create(`Vera ${stamp}`);
        const tia = await create(`Tia ${stamp}`);
        // Fay's and Abe's follow-ups fell due yesterday: the file is set back as if the
        // intake had been taken then (the form refuses a date already past).
        execFileSync('sqlite3', [
          process.env.CAREPATH_DB,
          `PRAGMA busy_timeout = 5000; UPDATE intakes SET next_follow_up_date = strftime('%Y-%m-%dT%H:%M:%S.000Z', 'now', '-1 day') WHERE id IN ('${fay}', '${abe}'); UPDATE intakes SET next_follow_up_date = NULL WHERE id IN ('${vera}', '${tia}');`,
        ]);
        // Vera's visit at the last minute of today, with me as the assessor.
        const visit = await page.request.post(`/api/intakes/${vera}/visits`, {
          headers: origin,
          data: { date: today, start_time: '23:59', duration_minutes: 15, place: '12 Oak St, Springfield', assessor_id: myId, notes: '' },
        });
        expect(visit.ok(), `booking the visit answered ${visit.status()}: ${await visit.text()}`);
        const task = await page.request.post(`/api/clients/${tia}/tasks`, { headers: origin, data: { due_date: today, note: `Call her daughter ${stamp}` } });
        expect(task.ok(), `adding the task answered ${task.status()}: ${await task.text()}`);

        await page.goto('/today');
        await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
        await expectRows(
          page,
          stamp,
          [`Follow-up due for Fay ${stamp}`, `Task for Tia ${stamp}`, `Assessment visit for Vera ${stamp}`],
          'my Today',
        );
        const followUp = page.getByRole('listitem', { name: `Follow-up due for Fay ${stamp}` });
        await expectOnScreen(followUp, 'the overdue follow-up');
        await expectOnScreen(followUp.getByText('1 day late'), 'its lateness');
        await expectOnScreen(page.getByRole('listitem', { name: `Assessment visit for Vera ${stamp}` }).getByRole('link', { name: /^Reschedule/ }), 'the visit’s Reschedule');
        await expectAccessible(page, 'Today');

        // Snooze the follow-up to tomorrow with a reason: the row leaves at once.
        await followUp.getByRole('button', { name: /^Snooze/ }).click();
        const dialog = page.getByRole('dialog', { name: `Snooze Fay ${stamp}` });
        await dialog.waitFor();
        await dialog.getByLabel('Until').fill(tomorrow);
        await dialog.getByLabel('Reason').fill('Away until tomorrow');
        await expectAccessible(page, 'the snooze dialog');
        await dialog.getByRole('button', { name: 'Snooze', exact: true }).click();
        await dialog.waitFor({ state: 'hidden' });
        await expectRows(page, stamp, [`Task for Tia ${stamp}`, `Assessment visit for Vera ${stamp}`], 'after the snooze');

        // Mark the task done: it leaves.
        await page.getByRole('listitem', { name: `Task for Tia ${stamp}` }).getByRole('button', { name: /^Mark Done/ }).click();
        await expectRows(page, stamp, [`Assessment visit for Vera ${stamp}`], 'after Mark Done');

        // A task added elsewhere for today arrives without a reload (the live feed).
        const added = await page.request.post(`/api/clients/${vera}/tasks`, { headers: origin, data: { due_date: today, note: `Bring the brochure ${stamp}` } });
        expect(added.ok(), `adding the second task answered ${added.status()}`);
        await expectRows(page, stamp, [`Task for Vera ${stamp}`, `Assessment visit for Vera ${stamp}`], 'after a new task');
        await expectOnScreen(page.getByRole('listitem', { name: `Task for Vera ${stamp}` }), 'the new task');

        // The snooze and the done task are in the clients' timelines.
        const timeline = await (await page.request.get(`/api/communications?intake_id=${fay}`)).json();
        expect(timeline.items.some((entry) => entry.content.endsWith(': Away until tomorrow')), 'the snooze is not in Fay’s timeline');

        // The dashboard's first card is my queue.
        await page.goto('/');
        const card = page.getByRole('region', { name: /My Queue/ });
        await card.waitFor();
        await expectOnScreen(card, 'the My Queue card');
      },
    },
    {
      name: 'queue: a long Today shows its 25 most late rows, and Show more the rest',
      as: staff,
      async run(page) {
        expect(process.env.CAREPATH_DB, 'CAREPATH_DB names the server’s database');
        const origin = { Origin: new URL(process.env.CAREPATH_URL).origin };
        const stamp = String(Date.now());
        const users = await (await page.request.get('/api/users')).json();
        const me = await (await page.request.get('/api/auth/me')).json();
        const colleague = users.items.find((user) => user.email !== staff.email && user.id !== (me.user ?? me).id);
        const ids = [];
        for (let n = 0; n < 27; n += 1) {
          const response = await page.request.post('/api/intakes', {
            headers: origin,
            data: {
              form: { staffMemberTakingCall: 'Coordinator', callerName: 'Grace Hopper', callerPhone: '(217) 555-0188', relationshipToClient: 'Daughter', clientFullName: `Long ${String(n).padStart(2, '0')} ${stamp}`, servicesRequired: ['Companionship'] },
              owner_id: colleague.id,
            },
          });
          expect(response.ok(), `creating client ${n} answered ${response.status()}`);
          ids.push((await response.json()).id);
        }
        // Their follow-ups fell due a month ago, a minute apart in the order they were made,
        // so they are the colleague's most late rows.
        const updates = ids.map((id, n) => `UPDATE intakes SET next_follow_up_date = strftime('%Y-%m-%dT%H:%M:%S.000Z', 'now', '-30 days', '+${n} minutes') WHERE id = '${id}';`);
        execFileSync('sqlite3', [process.env.CAREPATH_DB, `PRAGMA busy_timeout = 5000; ${updates.join(' ')}`]);

        await page.goto(`/today?user=${colleague.id}`);
        await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
        const names = (count) => Array.from({ length: count }, (_, n) => `Follow-up due for Long ${String(n).padStart(2, '0')} ${stamp}`);
        await expectRows(page, stamp, names(25), 'the first page');
        const more = page.getByRole('button', { name: 'Show more' });
        await more.scrollIntoViewIfNeeded();
        await expectOnScreen(page.getByText('The 25 most late are shown; more are due.'), 'the note that more are due');
        await expectOnScreen(more, 'Show more');
        await expectAccessible(page, 'a long Today');
        await more.click();
        await expectRows(page, stamp, names(27), 'after Show more');
        await page.getByRole('listitem', { name: names(27)[26] }).scrollIntoViewIfNeeded();
        await expectOnScreen(page.getByRole('listitem', { name: names(27)[26] }), 'the last row');
      },
    },
  ];
}
