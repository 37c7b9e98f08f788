// The page's first data, asked for the moment the page starts, before the app's scripts
// have run. The server names it in the page it sends (`<link rel="preload">`), but a
// repeat visit's page comes from the app's worker, which keeps one page for every
// address: without this the data left only once the app had started, a quarter of a
// second later on a phone. The build writes it into the page's <head> as an inline script
// with nothing to import (vite.config.ts), and the server's policy allows it by its hash.
// Screens whose data the address's query names are in query-first-data.ts.
//
// When the app's worker serves the page, its scripts come from the worker's cache and use
// no connection: the data is asked at once. A page from the network asks it once the
// page's own scripts have been asked for (after the parser's task), so the data never
// takes one of the browser's six connections ahead of them.
import { queryFirstDataOf } from './app/query-first-data';
import { firstDataOf } from './app/routes';
import { appStarted } from './lib/app-started';

function nameFirstData(): void {
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
}

// Browsers leave `serviceWorker` out of a page served over plain HTTP from another machine.
if ('serviceWorker' in navigator && navigator.serviceWorker.controller) nameFirstData();
else setTimeout(nameFirstData, 0);
