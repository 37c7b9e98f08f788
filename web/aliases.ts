import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

/**
 * Where imports resolve, for the build and the unit tests alike (what is tested is what
 * ships). `@` is `src/`. React's names resolve to Preact's compatibility layer
 * (preact/compat, the way Preact documents): the app, React Router, TanStack Query and
 * Table, Radix and sonner are written against React's API and run on Preact's, which
 * is 10 KB where React DOM is 60 (compressed). On a phone with a weak signal that is a
 * third of the scripts the first screen waits for, and less for its CPU to run. The
 * types stay React's (`@types/react`).
 */
export const aliases: Alias[] = [
  { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
];
