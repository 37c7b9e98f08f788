import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { rolldown } from 'rolldown';
import { defineConfig, type Connect, type Plugin, type PluginOption, type UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { generateSW } from 'workbox-build';
import { aliases } from './aliases';
import { APP_PAGE, FAMILY_PAGE, FAMILY_ROUTES, FAMILY_WORKER, FIRST_DATA, firstDataOfRoute, PUBLIC_ROUTES, QUERY_FIRST_DATA_ROUTES, STAFF_ROUTES } from './src/app/routes';

// sonner writes its stylesheet into a `<style>` element when it loads, which the server's
// Content-Security-Policy blocks (toasts would render unstyled at the foot of the page).
// The app imports sonner's own `dist/styles.css` instead (src/index.css), so this drops
// that one call from sonner's module. The build fails when the call is not found, so an
// upgrade that moves it is noticed rather than silently injecting again.
const SONNER_MODULE = /[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/;
const SONNER_INSERT_CSS = /^__insertCSS\(".*"\);$/m;

const apiTarget = process.env.CAREPATH_API ?? 'http://127.0.0.1:8080';

/** Where the build lists, for each route, the chunks its screen needs beyond the entry's. */
export const FIRST_SCREENS_FILE = 'first-screens.json';

/**
 * Writes FIRST_SCREENS_FILE: for each route (as a path pattern the server matches,
 * `/clients/{id}`), the files its screen's chunk needs that the page does not already
 * name, and the data it asks first (routes.ts; a staff screen's session check first,
 * with `staff` so the server names those only to a visitor with a session), and with
 * `query_data` whether the address's query decides more first data (routes.ts). The
 * server names them in the page it sends for that path, so a phone fetches the screen and
 * its data alongside the entry instead of round trips after the entry has run.
 */
function firstScreenFiles(): Plugin {
  return {
    name: 'carepath:first-screen-files',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (files: readonly string[], into = new Set<string>()): Set<string> => {
        for (const file of files) {
          if (into.has(file)) continue;
          into.add(file);
          closure(byFile.get(file)?.imports ?? [], into);
        }
        return into;
      };
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === 'index');
      if (!entry) return this.error(`the build has no entry chunk for ${APP_PAGE}`);
      const initial = closure([entry.fileName]);
      const fileName = (screen: string) => `/${screen.replace(/(?<!^)([A-Z])/g, '-$1').toLowerCase()}.tsx`;
      const pattern = (path: string) => path.replace(/:(\w+)/g, '{$1}');
      const staff = [['/', 'DashboardPage'] as const, ...STAFF_ROUTES.map(([path, screen]) => [`/${path}`, screen] as const)];
      const routes = [...PUBLIC_ROUTES.map((route) => [...route, false] as const), ...staff.map((route) => [...route, true] as const)].map(([path, screen, isStaff]) => {
        const chunk = chunks.find((candidate) => candidate.isDynamicEntry && candidate.facadeModuleId?.endsWith(fileName(screen)));
        if (!chunk) return this.error(`no chunk is the screen ${screen} (src/app/routes.ts)`);
        const files = [...closure([chunk.fileName])].filter((file) => !initial.has(file));
        const data = firstDataOfRoute(path, isStaff).map(pattern);
        return { path: pattern(path), staff: isStaff, files: files.map((file) => `/${file}`), data, query_data: QUERY_FIRST_DATA_ROUTES.includes(path), page: APP_PAGE };
      });
      // The family's page names its own scripts; the server sends it for these routes.
      for (const [path] of FAMILY_ROUTES) routes.push({ path: pattern(path), staff: false, files: [], data: firstDataOfRoute(path, false).map(pattern), query_data: false, page: FAMILY_PAGE });
      const known = new Set(routes.map((route) => route.path));
      for (const path of Object.keys(FIRST_DATA)) if (!known.has(pattern(path))) return this.error(`FIRST_DATA names ${path}, which is no route (src/app/routes.ts)`);
      this.emitFile({ type: 'asset', fileName: FIRST_SCREENS_FILE, source: JSON.stringify(routes) });
    },
  };
}

/**
 * Bundles src/first-data.ts into a script with nothing to import and writes it into the
 * page, first in its <head>, so it runs as the page is read. Vite folds every script of
 * index.html into the app's one entry, which runs only once React and the router have
 * loaded; as a file of its own (`async`) it ran only after the page had been read and a
 * task or two more (0.07 s on a phone, from the worker's cache), and on a first visit a
 * round trip after the page. The point is to start the first data before all that. The
 * server's policy allows exactly this script, by its hash (`server/src/web.rs`).
 */
function firstDataScript(): Plugin {
  let code = '';
  return {
    name: 'carepath:first-data-script',
    apply: 'build',
    async generateBundle() {
      const bundle = await rolldown({
        input: fileURLToPath(new URL('./src/first-data.ts', import.meta.url)),
        resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
      });
      const { output } = await bundle.generate({ format: 'iife', minify: true });
      await bundle.close();
      const [script] = output;
      code = script.code.trim();
      if (/<\/script|<!--/i.test(code)) throw new Error('the first-data script would end the page\'s <script> early');
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!code) throw new Error('the first-data script was not built (vite.config.ts)');
        // Between markers: the server finds the script there to hash it, and leaves it
        // out of a page that names all its first data itself (`without_first_data_script`
        // in server/src/web.rs).
        const script = `<!--first-data--><script>${code}</script><!--/first-data-->`;
        if (!html.includes('<head>')) throw new Error('the page has no <head> for the first-data script');
        return html.replace('<head>', () => `<head>\n    ${script}`);
      },
    },
  };
}

/**
 * Puts the app's stylesheet into the page itself, as a `<style>` with the page's nonce
 * (the server writes a fresh one into every page it sends, and the policy allows it).
 * On a phone the page's first paint waited for the stylesheet's own round trip (half a
 * second on "Fast 3G", behind the scripts on six connections); inside the page it comes
 * with the first bytes. The page is never cached by the browser, but the app's worker
 * keeps it for repeat visits, so the stylesheet still crosses the network once.
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'carepath:inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        let page = html;
        for (const item of Object.values(bundle)) {
          if (item.type !== 'asset' || !item.fileName.endsWith('.css')) continue;
          const href = `href="/${item.fileName}"`;
          const link = page.match(/<link rel="stylesheet"[^>]*>/g)?.find((tag) => tag.includes(href));
          if (!link) continue;
          const css = typeof item.source === 'string' ? item.source : new TextDecoder().decode(item.source);
          if (css.includes('</style')) this.error(`${item.fileName} cannot be put inside a <style> element`);
          page = page.replace(link, () => `<style nonce="CAREPATH_CSP_NONCE">${css}</style>`);
          delete bundle[item.fileName];
        }
        return page;
      },
    },
  };
}

/** The family's links as the service workers match them (Workbox tests the path and the
 * query): `/sign/:token` as `^/sign/[^/?]+/?(\?.*)?$`. */
const familyRoutePatterns = FAMILY_ROUTES.map(([path]) => new RegExp(`^${path.replace(/:\w+/g, '[^/?]+')}/?(\\?.*)?$`));

/**
 * Writes FAMILY_WORKER, the family's page's own service worker, with Workbox as the app's
 * (`generateSW`): it keeps family.html and the scripts it names, and answers the family's
 * links with that page. A family opening its link again then waits for the letter alone,
 * one round trip instead of two (0.5 s on "Fast 3G"), and the staff app's worker (every
 * screen, 1.4 MB) is never installed on a family's phone. src/family.tsx registers it,
 * scoped to the link's own path (`/approve/`, `/sign/`).
 */
function familyWorker(): Plugin {
  let outDir = '';
  let files: string[] = [];
  return {
    name: 'carepath:family-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === 'family');
      if (!entry) return this.error(`the build has no entry chunk for ${FAMILY_PAGE}`);
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = new Set<string>();
      const visit = (file: string) => {
        if (closure.has(file)) return;
        closure.add(file);
        for (const next of byFile.get(file)?.imports ?? []) visit(next);
      };
      visit(entry.fileName);
      files = [FAMILY_PAGE, ...closure];
    },
    async closeBundle() {
      if (files.length === 0) return;
      await generateSW({
        swDest: path.join(outDir, FAMILY_WORKER),
        globDirectory: outDir,
        globPatterns: files,
        navigateFallback: FAMILY_PAGE,
        navigateFallbackAllowlist: familyRoutePatterns,
        inlineWorkboxRuntime: true,
        cleanupOutdatedCaches: true,
        cacheId: 'carepath-family',
        // A new build's worker takes over at once: the page is one script, which an open
        // tab has already run, and there is no notice to ask the family to reload.
        skipWaiting: true,
        clientsClaim: true,
        sourcemap: false,
        mode: 'production',
      });
    },
  };
}

/** What both pages' builds do: React, Tailwind, sonner's styles as a stylesheet, the
 * page's first-data script and its stylesheet written into the page. */
function pagePlugins(): PluginOption[] {
  return [
    {
      name: 'carepath:sonner-stylesheet-only',
      enforce: 'pre',
      transform(code, id) {
        if (!SONNER_MODULE.test(id.split('?')[0] ?? '')) return null;
        if (!SONNER_INSERT_CSS.test(code)) this.error('sonner no longer injects its styles the way vite.config.ts expects; check src/index.css');
        return { code: code.replace(SONNER_INSERT_CSS, '/* sonner styles come from sonner/dist/styles.css */'), map: null };
      },
    },
    react(),
    tailwindcss(),
    firstDataScript(),
    inlineStylesheet(),
  ];
}

/** In development (`vite`, `vite preview`), the family's links open the family's page as
 * the server's do. */
function familyPagesInDevelopment(): Plugin {
  const familyPage: Connect.NextHandleFunction = (request, _response, next) => {
    if (familyRoutePatterns.some((pattern) => pattern.test(request.url ?? ''))) request.url = `/${FAMILY_PAGE}`;
    next();
  };
  return {
    name: 'carepath:family-pages-in-development',
    configureServer(server) {
      server.middlewares.use(familyPage);
    },
    configurePreviewServer(server) {
      server.middlewares.use(familyPage);
    },
  };
}

const appBuild: UserConfig = {
  plugins: [
    ...pagePlugins(),
    firstScreenFiles(),
    familyPagesInDevelopment(),
    // The service worker precaches this build's page and every hashed file, and serves the
    // page for the app's routes when there is no network. A new build's worker waits until
    // the user reloads from the "A new version is available" notice (src/lib/app-update.ts),
    // so one page never runs on two builds' files. The manifest is the server's (it names
    // the agency and shows its logo); API answers are never cached by the worker.
    VitePWA({
      strategies: 'generateSW',
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      filename: 'sw.js',
      workbox: {
        globPatterns: ['index.html', 'assets/**/*.{js,css,svg,png,woff2}', 'favicon.svg', 'icon-*.png'],
        navigateFallback: 'index.html',
        // The family's links are a page of their own, which the worker does not keep.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/manifest\.webmanifest$/, /^\/sw\.js$/, ...familyRoutePatterns],
        // One file beside the page: the worker and its Workbox runtime ship together.
        inlineWorkboxRuntime: true,
        cleanupOutdatedCaches: true,
        clientsClaim: false,
        skipWaiting: false,
        // The largest chunk (charts) is well under this; a bigger one should fail the build's check.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
  ],
  // Pre-bundled dependencies skip `transform`, so sonner goes through the plugin above.
  optimizeDeps: { exclude: ['sonner'] },
  resolve: { alias: aliases },
  server: {
    port: 5173,
    proxy: {
      '/api': {
        target: apiTarget,
        changeOrigin: false,
        // The server refuses mutating requests from another origin; in development the
        // page's origin is Vite's, so requests go on as if from the server's own pages.
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin')) request.setHeader('origin', new URL(apiTarget).origin);
          });
        },
      },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // scripts/check-budget.mjs reads which chunks the dashboard loads before it runs.
    manifest: true,
    rolldownOptions: {
      // Each screen shares small pieces (an icon, a field, a badge) with a different set of
      // other screens, and left alone each set becomes a chunk of its own: the dashboard
      // fetched 37 files. Over HTTP/1.1 a browser has six connections, so on a phone's
      // network every wave of five costs a round trip (half a second on "Fast 3G"). Common
      // chunks under 40 KB (source) are copied into the chunks that use them instead: the
      // dashboard is 11 files and the cold phone load went from 6.1 s to 3.6 s.
      // The option needs entry signatures left free; Rolldown then keeps modules in their
      // source order (`strictExecutionOrder`), so a copied module never runs before its imports.
      // The packages the entry imports (`$initial`: the framework, the router, queries,
      // toasts) are one chunk beside the entry's own code: split by which screens also use
      // them, they were five files, and the screen's own chunks and its data waited for a
      // free connection behind them (0.3-0.5 s on "Fast 3G").
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          groups: [{ name: 'vendor', tags: ['$initial'], test: /[\\/]node_modules[\\/]|vite\/preload-helper/ }],
          experimentalInlineCommonChunks: { maxSize: 40_000 },
        },
      },
    },
  },
};

/** The build's mode for the family's page: `vite build --mode family`. */
const FAMILY_MODE = 'family';

/**
 * The family's page (FAMILY_PAGE, src/family.tsx) is a build of its own, run after the
 * app's into the same folder. In the app's build it would share the packages' chunk, which
 * holds React Router for the app (88 KB the family never runs); split out, the router was a
 * file more for every staff screen, a round trip more on a phone's six connections (0.1-0.2 s).
 * On its own the family's page is one script with what it uses: the framework and queries
 * are copied into it, and the app's files are left as they were.
 */
const familyBuild: UserConfig = {
  plugins: [...pagePlugins(), familyWorker()],
  optimizeDeps: { exclude: ['sonner'] },
  resolve: { alias: aliases },
  build: {
    outDir: 'dist',
    // The app's build has just written it.
    emptyOutDir: false,
    sourcemap: false,
    rolldownOptions: { input: { family: fileURLToPath(new URL(`./${FAMILY_PAGE}`, import.meta.url)) } },
  },
};

export default defineConfig(({ mode }) => (mode === FAMILY_MODE ? familyBuild : appBuild));
