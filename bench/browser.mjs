// Carepath's screens as a phone in the field gets them: Debian's Chromium (never a
// downloaded one) driven over the DevTools protocol with the CPU slowed 4× and the
// network of "Fast 3G" (562.5 ms round trip, 180 KB/s down, 82 KB/s up). For each screen
// it measures, on a cold cache, the first contentful paint, the moment the screen shows
// real data (a selector per screen) and the bytes that crossed the network until then;
// then a repeat visit once the app's worker is active, and the same screens on a desktop without
// throttling. Prints one JSON document; bench/bench.py turns it into report.md.
//
//   node bench/browser.mjs --url http://127.0.0.1:PORT --outbox DATA_DIR/outbox [--runs 3]
//
// An https URL is the deployment's shape: Caddy in front (HTTP/2 over TLS), with the
// certificate of its own local authority, which this browser is told to accept.
import { readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

// playwright-core is the web UI's dev dependency (its browser tests use it too).
const require = createRequire(new URL('../web/package.json', import.meta.url));
const { chromium, request: apiRequest } = require('playwright-core');

const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    outbox: { type: 'string' },
    runs: { type: 'string', default: '1' },
    email: { type: 'string', default: 'admin@carepath.test' },
    password: { type: 'string', default: 'carepath-demo' },
  },
});
if (!options.url || !options.outbox) throw new Error('usage: browser.mjs --url URL --outbox DIR [--runs N]');
const BASE = options.url.replace(/\/$/, '');
/** A local proxy's certificate is signed by its own authority, not a public one. */
const ignoreHTTPSErrors = BASE.startsWith('https:');
const RUNS = Math.max(1, Number(options.runs));

/** Chrome DevTools' "Fast 3G" preset, and a mid-range phone's CPU. */
export const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: 184320, uploadThroughput: 84375 };
export const CPU_SLOWDOWN = 4;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const log = (...parts) => console.error('browser bench:', ...parts);

async function json(response, what) {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/** The personal link (`/approve/…` or `/sign/…`) in the newest outbox message that has one. */
async function newestLink(kind, after) {
  const dir = join(options.outbox, 'private');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const names = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.eml'));
    const files = await Promise.all(names.map(async (name) => ({ name, mtime: (await stat(join(dir, name))).mtimeMs })));
    files.sort((a, b) => b.mtime - a.mtime);
    for (const file of files) {
      if (file.mtime < after) break;
      const text = (await readFile(join(dir, file.name), 'utf8')).replace(/=\r?\n/g, '');
      const match = text.match(new RegExp(`/${kind}/([A-Za-z0-9_-]{43})`));
      if (match) return `/${kind}/${match[1]}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${kind} link in the outbox`);
}

/** Signs in, picks a client, and sends the family a proposal and a contract to open. */
async function prepare() {
  const api = await apiRequest.newContext({ baseURL: BASE, extraHTTPHeaders: { Origin: BASE }, ignoreHTTPSErrors });
  await json(await api.post('/api/auth/sign-in', { data: { email: options.email, password: options.password } }), 'signing in');
  const { cookies } = await api.storageState();
  const clients = await json(await api.get('/api/clients?limit=1'), 'clients');
  const client = clients.items[0];
  if (!client) throw new Error('the agency has no clients');
  const family = {};
  const drafts = (await json(await api.get('/api/care-plans?status=draft&limit=50'), 'care plans')).items.filter((plan) => plan.intake_id && plan.family_contact_email);
  const send = async (plan) => {
    const sentAt = Date.now() - 1000;
    await json(await api.post(`/api/care-plans/${plan.id}/send`, { data: { to: 'family@example.test', body: 'Here is the proposal.', version: plan.version } }), 'sending a proposal');
    return newestLink('approve', sentAt);
  };
  if (drafts[0]) family.approve = { path: await send(drafts[0]), name: drafts[0].client_name };
  if (drafts[1]) {
    // A second proposal, approved by the family, becomes the contract they sign.
    const plan = drafts[1];
    const token = (await send(plan)).split('/').pop();
    await json(await api.post(`/api/public/approve/${token}`, { data: { name: 'Jane Family' } }), 'approving');
    const preview = await json(await api.get(`/api/contracts/preview?care_plan_id=${plan.id}`), 'contract preview');
    const contract = await json(await api.post('/api/contracts', { data: { care_plan_id: plan.id, care_plan_version: preview.care_plan_version, content: preview.content } }), 'contract');
    const sentAt = Date.now() - 1000;
    await json(await api.post(`/api/contracts/${contract.id}/send`, { data: { body: 'Please sign the agreement.', version: contract.version } }), 'sending the contract');
    family.sign = { path: await newestLink('sign', sentAt), name: plan.client_name };
  }
  await api.dispose();
  return { cookies, client, family };
}

/**
 * The screens, each with what shows that its real data has arrived: a function run in the
 * page (with `arg`) that answers the moment it does, `performance.now()`, and false before.
 */
function screens({ client, family }) {
  const list = [
    { name: 'dashboard', path: '/', staff: true, ready: () => /\d/.test(document.querySelector('main a[href="/clients?filter=intake"] span:last-child')?.textContent ?? '') && performance.now() },
    { name: 'all clients', path: '/clients', staff: true, ready: () => [...document.querySelectorAll('main table tbody tr')].some((row) => row.querySelectorAll('td').length > 2) && performance.now() },
    {
      name: 'client profile',
      path: `/clients/${client.id}`,
      staff: true,
      ready: (name) => document.querySelector('main h1')?.textContent === name && performance.now(),
      arg: client.client_full_name ?? client.full_name ?? client.name,
    },
    { name: 'intake form', path: `/intake?intake_id=${client.id}`, staff: true, ready: () => [...document.querySelectorAll('main input[type="text"], main input:not([type])')].some((input) => input.value.trim() !== '') && performance.now() },
    { name: 'analytics', path: '/analytics', staff: true, ready: () => Boolean(document.querySelector('main svg.chart')) && performance.now() },
  ];
  if (family.approve) list.push({ name: 'family: approve proposal', path: family.approve.path, family: true, ready: (name) => document.body.innerText.includes(name) && performance.now(), arg: family.approve.name });
  if (family.sign) list.push({ name: 'family: sign contract', path: family.sign.path, family: true, ready: () => (document.querySelector('[data-testid="contract-text"]')?.textContent?.length ?? 0) > 100 && performance.now() });
  return list;
}

/** Opens `screen` in `page` and measures it; the page's cache is as the caller left it. */
async function visit(page, cdp, screen) {
  let bytes = 0;
  let counting = true;
  const onFinished = (event) => {
    if (counting) bytes += event.encodedDataLength;
  };
  cdp.on('Network.loadingFinished', onFinished);
  try {
    await page.goto(BASE + screen.path, { waitUntil: 'commit', timeout: 60_000 });
    const contentHandle = await page.waitForFunction(screen.ready, screen.arg ?? null, { polling: 'raf', timeout: 60_000 });
    const contentMs = await contentHandle.jsonValue();
    counting = false;
    const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
    return { content_ms: Math.round(contentMs), fcp_ms: fcpMs === null ? null : Math.round(fcpMs), bytes };
  } finally {
    cdp.off('Network.loadingFinished', onFinished);
  }
}

async function measureScreen(browser, prepared, screen, profile) {
  const context = await browser.newContext({ viewport: profile.viewport, baseURL: BASE, ignoreHTTPSErrors });
  if (screen.staff) await context.addCookies(prepared.cookies);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  if (profile.throttled) {
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
  try {
    const cold = await visit(page, cdp, screen);
    // A repeat visit is a coordinator opening the app again the next day: the app's
    // worker, which the first visit installs, answers the page and its scripts from
    // its cache, and only the data crosses the network. Measured once the worker is
    // active (it says so if it never became so), in the same profile.
    let worker = false;
    if (profile.warm) {
      worker = await page.evaluate(
        (ms) => Promise.race([navigator.serviceWorker.ready.then((registration) => Boolean(registration.active)), new Promise((resolve) => setTimeout(() => resolve(false), ms))]),
        30_000,
      );
    }
    await page.goto('about:blank');
    const warm = profile.warm ? { ...(await visit(page, cdp, screen)), worker } : null;
    return { cold, warm };
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const sorted = values.filter((value) => value !== null).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
};

function summarize(runs, key) {
  const present = runs.map((run) => run[key]).filter(Boolean);
  if (!present.length) return null;
  return {
    fcp_ms: median(present.map((run) => run.fcp_ms)),
    content_ms: median(present.map((run) => run.content_ms)),
    bytes: median(present.map((run) => run.bytes)),
    ...(key === 'warm' ? { worker: present.every((run) => run.worker) } : {}),
  };
}

async function main() {
  const prepared = await prepare();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  const results = [];
  const version = browser.version();
  try {
    const profiles = [
      { name: 'phone', viewport: PHONE, throttled: true, warm: true },
      { name: 'desktop', viewport: DESKTOP, throttled: false, warm: false },
    ];
    for (const screen of screens(prepared)) {
      const row = { screen: screen.name, family: Boolean(screen.family) };
      for (const profile of profiles) {
        const runs = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await measureScreen(browser, prepared, screen, profile));
        if (profile.throttled) {
          row.phone_cold = summarize(runs, 'cold');
          row.phone_warm = summarize(runs, 'warm');
        } else {
          row.desktop = summarize(runs, 'cold');
        }
      }
      log(screen.name, JSON.stringify(row));
      results.push(row);
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(`${JSON.stringify({ chromium: version, runs: RUNS, network: FAST_3G, cpu_slowdown: CPU_SLOWDOWN, screens: results }, null, 2)}\n`);
}

await main();
