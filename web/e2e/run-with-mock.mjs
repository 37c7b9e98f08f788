// Builds nothing: serves the existing dist/ from the in-memory mock API and runs the
// browser tests against it. `npm run build` first.
import { runTests } from './harness.mjs';
import { createMockServer, DEMO_PASSWORD, DEMO_USER } from './mock-server.mjs';
import { createTests } from './tests.mjs';

const server = createMockServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const baseURL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
let ok = false;
try {
  ok = await runTests(createTests({ email: DEMO_USER.email, password: DEMO_PASSWORD }), { baseURL, filter: process.argv[2] });
} finally {
  server.closeAllConnections();
  server.close();
}
process.exit(ok ? 0 : 1);
