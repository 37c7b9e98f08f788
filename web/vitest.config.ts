import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { aliases } from './aliases';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // ES modules, as the browser loads them: a package's CommonJS build (React Router's,
    // Testing Library's) would load React itself, past the aliases.
    conditions: ['module', 'browser', 'development'],
    alias: [{ find: /^@testing-library\/react$/, replacement: '@testing-library/react/dist/@testing-library/react.esm.js' }, ...aliases],
  },
  // The repository's shared fixtures (cases core tests too, e.g. SMS segments).
  server: { fs: { allow: ['.', '../fixtures'] } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'test-support/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // Packages written against React (Testing Library, TanStack, Radix, React Router, sonner)
    // go through the aliases too, so a test renders with Preact as the app does.
    server: { deps: { inline: true } },
    reporters: ['default', './test-support/summary-reporter.ts'],
  },
});
