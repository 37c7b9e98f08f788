// Runs the browser tests against a running Carepath server.
//   CAREPATH_URL=http://127.0.0.1:8080 CAREPATH_EMAIL=... CAREPATH_PASSWORD=... npm run e2e
// Prints `N passed, N failed` and exits non-zero when a test fails.
import { runTests } from './harness.mjs';
import { createTests } from './tests.mjs';

const baseURL = process.env.CAREPATH_URL;
if (!baseURL) {
  console.error('Set CAREPATH_URL to the base URL of a running `carepath serve` (for example http://127.0.0.1:8080).');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const tests = createTests({ email: process.env.CAREPATH_EMAIL, password: process.env.CAREPATH_PASSWORD });
const ok = await runTests(tests, { baseURL, filter: process.argv[2] });
process.exit(ok ? 0 : 1);
