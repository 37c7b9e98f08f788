import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // The repository's shared fixtures (cases core tests too, e.g. SMS segments).
  server: { fs: { allow: ['.', '../fixtures'] } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'test-support/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    reporters: ['default', './test-support/summary-reporter.ts'],
  },
});
