// A small browser-test harness on playwright-core: the system Chromium, one fresh
// context per test, axe-core checks, and a plain `N passed, N failed` closing line.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);

export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

let axeSource = null;

/** Runs axe-core in the page; fails on serious or critical violations. */
export async function expectAccessible(page, label) {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')}`);
  });
  if (violations.length > 0) throw new Error(`accessibility problems on ${label}:\n  ${violations.join('\n  ')}`);
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

export async function runTests(tests, { baseURL, filter }) {
  const browser = await launchBrowser();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  try {
    for (const test of tests) {
      if (filter && !test.name.includes(filter)) continue;
      if (test.skip) {
        skipped += 1;
        console.log(`- skip ${test.name}: ${test.skip}`);
        continue;
      }
      const context = await browser.newContext({ baseURL, viewport: test.viewport ?? { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const pageErrors = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const started = Date.now();
      try {
        await test.run(page);
        if (pageErrors.length > 0) throw new Error(`uncaught page errors: ${pageErrors.join('; ')}`);
        passed += 1;
        console.log(`✓ ${test.name} (${Date.now() - started} ms)`);
      } catch (error) {
        failed += 1;
        console.log(`✗ ${test.name}\n  ${error instanceof Error ? error.message : String(error)}`);
        if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `test-results/${test.name.replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  const tail = skipped ? `, ${skipped} skipped` : '';
  console.log(`\n${passed} passed, ${failed} failed${tail}`);
  return failed === 0;
}
