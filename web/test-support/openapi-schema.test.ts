// @vitest-environment node
// Fails when src/api/schema.d.ts or src/api/options.gen.ts was not regenerated after web/openapi.json changed.
// Refresh with `npm run gen:api`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('generated API types', () => {
  it('src/api/schema.d.ts matches openapi.json', () => {
    const cli = `${root}node_modules/openapi-typescript/bin/cli.js`;
    const fresh = execFileSync(process.execPath, [cli, 'openapi.json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const committed = readFileSync(`${root}src/api/schema.d.ts`, 'utf8');
    expect(committed === fresh, 'src/api/schema.d.ts is stale: run `npm run gen:api`').toBe(true);
  }, 30_000);

  it('src/api/options.gen.ts matches openapi.json', () => {
    const fresh = execFileSync(process.execPath, ['scripts/gen-options.mjs', '--stdout'], { cwd: root, encoding: 'utf8' });
    const committed = readFileSync(`${root}src/api/options.gen.ts`, 'utf8');
    expect(committed === fresh, 'src/api/options.gen.ts is stale: run `npm run gen:api`').toBe(true);
    expect(fresh).toContain('export const CARE_PLAN_SERVICE_VALUES');
  });
});
