// Fails the build when the dashboard needs more than its budget of compressed JavaScript
// before it is interactive: the entry chunk, the dashboard's own chunk, and every chunk
// either imports statically (the browser fetches those before running them). Sizes are
// Brotli at the quality the server embeds them with, from Vite's manifest.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

export const BUDGET_BYTES = 170 * 1024;
export const DASHBOARD_SOURCE = 'src/features/dashboard/components/dashboard-page.tsx';

/** The chunks a page loads before it runs: `roots` and their static imports, transitively. */
export function staticClosure(manifest, roots) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const root of roots) visit(root);
  return [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
}

export const brotliSize = (bytes) =>
  brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 22 },
  }).length;

/** The dashboard's initial JavaScript, file by file, with its Brotli sizes. */
export function dashboardInitialJs(dist) {
  const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
  // The staff app's page (the family's page is a build of its own, with no manifest).
  const entry = 'index.html';
  if (!manifest[entry]?.isEntry) throw new Error('the manifest names no entry chunk for index.html');
  if (!manifest[DASHBOARD_SOURCE]) throw new Error(`the manifest has no ${DASHBOARD_SOURCE}`);
  const page = readFileSync(new URL('index.html', dist), 'utf8');
  const files = staticClosure(manifest, [entry, DASHBOARD_SOURCE]);
  // And the script written into the page itself (the first-data script).
  const inline = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match, index) => ({
    file: `index.html, inline script ${index + 1}`,
    brotli: brotliSize(Buffer.from(match[1] ?? '')),
  }));
  return [
    ...files.map((file) => ({
      file,
      brotli: brotliSize(readFileSync(new URL(file, dist))),
    })),
    ...inline,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = dashboardInitialJs(new URL('../dist/', import.meta.url));
  const total = files.reduce((sum, file) => sum + file.brotli, 0);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const file of files.sort((a, b) => b.brotli - a.brotli)) console.log(`  ${file.file.padEnd(48)} ${kb(file.brotli).padStart(9)}`);
  const verdict = total <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(`dashboard initial JavaScript: ${kb(total)} Brotli, ${verdict} the budget of ${kb(BUDGET_BYTES)}`);
  if (total > BUDGET_BYTES) process.exit(1);
}
