// A small browser-test harness on playwright-core: the system Chromium, one fresh
// context per test, axe-core checks, and a plain `N passed, N failed` closing line.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, request } from 'playwright-core';

const require = createRequire(import.meta.url);

export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

let axeSource = null;

/** Runs axe-core in the page; fails on serious or critical violations. */
export async function expectAccessible(page, label) {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Colours are judged once transitions (a toast sliding in, a dialog fading) settle.
  await page.evaluate(() => Promise.race([Promise.all(document.getAnimations().filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime))).map((animation) => animation.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 2000))]));
  // Evaluated over the DevTools protocol, so the app's Content-Security-Policy stays on.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')}`);
  });
  if (violations.length > 0) throw new Error(`accessibility problems on ${label}:\n  ${violations.join('\n  ')}`);
}

/**
 * What a person sees of an element: its box inside the viewport, not hidden, not
 * faded out, and (with `{ background: true }`) painted on an opaque-enough background
 * of its own rather than showing the page through. Waits up to `timeout` for
 * transitions (a toast sliding in) to settle; fails with what was seen.
 */
export async function expectOnScreen(locator, label, { background = false, timeout = 4000 } = {}) {
  await locator.waitFor({ state: 'visible', timeout });
  const deadline = Date.now() + timeout;
  let seen;
  for (;;) {
    seen = await locator.evaluate((element, wantBackground) => {
      const box = element.getBoundingClientRect();
      const problems = [];
      if (box.width < 1 || box.height < 1) problems.push(`an empty box ${box.width}x${box.height}`);
      if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth) {
        problems.push(`box (${Math.round(box.left)}, ${Math.round(box.top)})–(${Math.round(box.right)}, ${Math.round(box.bottom)}) outside the ${window.innerWidth}x${window.innerHeight} viewport`);
      }
      let opacity = 1;
      for (let node = element; node instanceof Element; node = node.parentElement) {
        const style = getComputedStyle(node);
        opacity *= Number(style.opacity);
        if (style.visibility === 'hidden' || style.display === 'none') problems.push(`hidden by ${node.tagName.toLowerCase()}`);
      }
      if (opacity < 0.9) problems.push(`opacity ${opacity.toFixed(2)}`);
      if (wantBackground) {
        const colour = getComputedStyle(element).backgroundColor;
        const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(colour);
        if (colour === 'transparent' || (alpha && Number(alpha[1]) < 0.9)) problems.push(`a see-through background (${colour})`);
      }
      return problems;
    }, background);
    if (seen.length === 0) return;
    if (Date.now() > deadline) break;
    await locator.page().waitForTimeout(150);
  }
  throw new Error(`${label} is not visible to a person: ${seen.join('; ')}`);
}

/**
 * Chromium's console lines that are not faults: a 4xx answer is how the API says no
 * (a refused sign-in, a validation error the page shows), and the browser logs each.
 * A 5xx, a CSP violation, a React warning or an uncaught error still fails the test.
 */
const EXPECTED_CONSOLE = [/^Failed to load resource: the server responded with a status of 4\d\d\b/];

/** Collects console errors and CSP violations of every page of `context`. */
export async function watchConsole(context) {
  const problems = [];
  // Installed over the DevTools protocol, so the page's own policy does not block it.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (EXPECTED_CONSOLE.some((pattern) => pattern.test(text))) return;
    const where = message.location()?.url ? ` at ${message.location().url}` : '';
    problems.push(`${text}${where}`);
  });
  return problems;
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Signs each user in once through the API and keeps the session cookie, so tests start
 * signed in without spending the server's per-address sign-in attempts.
 */
async function sessionFor(baseURL, user, cache) {
  if (cache.has(user.email)) return cache.get(user.email);
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  try {
    const response = await api.post('/api/auth/sign-in', { data: { email: user.email, password: user.password } });
    if (!response.ok()) throw new Error(`signing in ${user.email} answered ${response.status()}: ${await response.text()}`);
    const state = await api.storageState();
    cache.set(user.email, state);
    return state;
  } finally {
    await api.dispose();
  }
}

export async function runTests(tests, { baseURL, filter }) {
  const browser = await launchBrowser();
  const sessions = new Map();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  try {
    const queue = tests.map((test) => ({ test, attempt: 1 }));
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const { test, attempt } = next;
      if (filter && !test.name.includes(filter)) continue;
      if (test.skip) {
        skipped += 1;
        console.log(`- skip ${test.name}: ${test.skip}`);
        continue;
      }
      let storageState;
      try {
        storageState = test.as ? await sessionFor(baseURL, test.as, sessions) : undefined;
      } catch (error) {
        failed += 1;
        console.log(`✗ ${test.name}\n  ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const context = await browser.newContext({ storageState, baseURL, viewport: test.viewport ?? { width: 1280, height: 800 }, acceptDownloads: true });
      const consoleErrors = await watchConsole(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const pageErrors = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const started = Date.now();
      let timer;
      try {
        // A test that hangs (a wait with no timeout of its own) fails with its name instead
        // of holding up the whole run.
        const limit = test.timeoutMs ?? 180_000;
        await Promise.race([
          test.run(page),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`did not finish within ${limit / 1000} s`)), limit);
          }),
        ]);
        if (pageErrors.length > 0) throw new Error(`uncaught page errors: ${pageErrors.join('; ')}`);
        const unexpected = consoleErrors.filter((text) => !(test.allowConsole ?? []).some((pattern) => pattern.test(text)));
        if (unexpected.length > 0) throw new Error(`console errors:\n  ${unexpected.join('\n  ')}`);
        passed += 1;
        console.log(`✓ ${test.name} (${Date.now() - started} ms${attempt > 1 ? `, attempt ${attempt}` : ''})`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Only a test that names its reason may be tried again, and it says so.
        if (attempt <= (test.retries ?? 0)) {
          console.log(`↻ ${test.name}: attempt ${attempt} failed (${message.split('\n')[0]}); trying again`);
          queue.unshift({ test, attempt: attempt + 1 });
          continue;
        }
        failed += 1;
        console.log(`✗ ${test.name}\n  ${message}`);
        if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `test-results/${test.name.replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
      } finally {
        clearTimeout(timer);
        await Promise.race([context.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
    }
  } finally {
    await browser.close();
  }
  const tail = skipped ? `, ${skipped} skipped` : '';
  console.log(`\n${passed} passed, ${failed} failed${tail}`);
  return failed === 0;
}
