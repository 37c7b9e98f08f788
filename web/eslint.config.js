import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Features stay independent: a feature imports only itself, the shared code outside
// `src/features/`, and the widget features every screen composes. Widgets import no screen.
const WIDGET_FEATURES = ['auth', 'communications', 'contacts', 'handoff', 'leads', 'queue', 'signing', 'visits'];
// A widget built on another: the queue's rows log calls with the communications' dialog.
const WIDGET_USES = { queue: ['communications'] };
const FEATURES = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function featureBoundary(name) {
  const allowed = WIDGET_FEATURES.includes(name) ? ['auth', ...(WIDGET_USES[name] ?? []), name] : [...WIDGET_FEATURES, name];
  return {
    files: [`src/features/${name}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/features/(?!(${allowed.join('|')})/)`,
              message: `The ${name} feature may import only ${allowed.join(', ')} among the features; move shared code to src/components or src/lib.`,
            },
            { regex: '^(\\.\\./){2,}', message: 'Import other folders through the @/ alias, never by climbing out of a feature.' },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: { project: ['./tsconfig.app.json'], tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  ...FEATURES.map(featureBoundary),
  {
    // One home for query keys and for making them stale: src/api/query-keys.ts.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/api/query-keys.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "Property[key.name='queryKey'] > ArrayExpression", message: 'Name the key in src/api/query-keys.ts (queryKeys) instead of writing it here.' },
        { selector: "CallExpression[callee.property.name=/^(setQueryData|getQueryData|removeQueries)$/] > ArrayExpression.arguments", message: 'Name the key in src/api/query-keys.ts (queryKeys) instead of writing it here.' },
        { selector: "CallExpression[callee.property.name='invalidateQueries']", message: 'Make queries stale through invalidate() or useInvalidate() of src/api/query-keys.ts.' },
      ],
    },
  },
  {
    files: ['src/{api,app,components,lib}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@/features/(?!auth/)', message: 'Shared code does not depend on a feature; the router lazy-loads screens by path.' }] },
      ],
    },
  },
  {
    // The first screen's data is asked for with the session check (screens.ts): its query
    // options come from the feature's api module, never its components.
    files: ['src/app/screens.ts', 'src/app/screens.test.ts', 'src/app/query-first-data.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@/features/(?!auth/)[^/]+/(?!api/)', message: 'Only a feature\'s api module may load with the first screen.' }] },
      ],
    },
  },
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.config.{js,ts}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The build's configuration is TypeScript (its plugins are typed).
    files: ['*.config.ts'],
    languageOptions: { parser: tseslint.parser },
  },
);
