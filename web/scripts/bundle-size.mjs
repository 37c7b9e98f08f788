// Prints the production bundle's files with their gzip sizes, largest last, and the
// totals: everything, and what the first page load fetches (index.html's own assets).
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const assets = new URL('assets/', dist);
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} kB`;

const files = readdirSync(assets)
  .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
  .map((name) => {
    const bytes = readFileSync(new URL(name, assets));
    return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => a.gzip - b.gzip);

const html = readFileSync(new URL('index.html', dist), 'utf8');
const initial = files.filter((file) => html.includes(`/assets/${file.name}`));
const width = Math.max(...files.map((file) => file.name.length));
for (const file of files) console.log(`${file.name.padEnd(width)}  ${kb(file.raw).padStart(10)}  gzip ${kb(file.gzip).padStart(9)}`);
const sum = (list, key) => list.reduce((total, file) => total + file[key], 0);
console.log(`\ntotal: ${files.length} files, ${kb(sum(files, 'raw'))}, gzip ${kb(sum(files, 'gzip'))}`);
console.log(`first load (${initial.map((file) => file.name).join(', ')}): gzip ${kb(sum(initial, 'gzip'))}`);
