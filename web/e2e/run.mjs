// Runs the browser tests against a running Carepath server.
//   CAREPATH_URL=http://127.0.0.1:8080 npm run e2e [name filter]
// Signs in as the demo database's users unless CAREPATH_EMAIL / CAREPATH_PASSWORD (admin)
// and CAREPATH_STAFF_EMAIL / CAREPATH_STAFF_PASSWORD say otherwise.
// Prints `N passed, N failed` and exits non-zero when a test fails.
import { runTests } from './harness.mjs';
import { createTests } from './tests.mjs';

const baseURL = process.env.CAREPATH_URL;
if (!baseURL) {
  console.error('Set CAREPATH_URL to the base URL of a running `carepath serve` (for example http://127.0.0.1:8080).');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const DEMO_PASSWORD = 'carepath-demo';
const admin = { email: process.env.CAREPATH_EMAIL || 'admin@carepath.test', password: process.env.CAREPATH_PASSWORD || DEMO_PASSWORD };
const staff = { email: process.env.CAREPATH_STAFF_EMAIL || 'coordinator@carepath.test', password: process.env.CAREPATH_STAFF_PASSWORD || DEMO_PASSWORD };

const tests = createTests({ admin, staff });
const ok = await runTests(tests, { baseURL, filter: process.argv[2] });
process.exit(ok ? 0 : 1);
