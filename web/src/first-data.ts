// The page's first data, asked for the moment the page starts, before the app's scripts
// have run. The server names it in the page it sends (`<link rel="preload">`), but a
// repeat visit's page comes from the app's worker, which keeps one page for every
// address: without this the data left only once the app had started, a quarter of a
// second later on a phone. The build bundles it into a small script of its own with
// nothing to import (vite.config.ts), named `async` ahead of the app, so it runs as soon
// as it arrives. Screens whose data the address's query names are in query-first-data.ts.
import { queryFirstDataOf } from './app/query-first-data';
import { firstDataOf } from './app/routes';
import { appStarted } from './lib/app-started';

const { pathname, search } = window.location;
const hrefs = appStarted() ? [] : [...firstDataOf(pathname), ...queryFirstDataOf(pathname, search)];
for (const href of hrefs) {
  const named = [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].some((link) => link.getAttribute('href') === href);
  if (named) continue;
  const link = document.createElement('link');
  // The same request the app's own fetch makes (same address, mode and credentials), so
  // the browser hands the app this answer instead of asking again.
  link.rel = 'preload';
  link.as = 'fetch';
  link.crossOrigin = 'anonymous';
  link.href = href;
  document.head.append(link);
}
