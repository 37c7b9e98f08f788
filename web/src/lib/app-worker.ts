/**
 * Registers the service worker (vite-plugin-pwa, Workbox): it precaches this build's page
 * and files so the app opens without a network. A new build's worker waits; the notice
 * (app-update.ts) tells it to take over, and the page reloads once it has.
 */
import { registerSW } from 'virtual:pwa-register';
import { newVersionReady, switchToWaitingWorker } from './app-update';

let reloading = false;

/** One reload, whichever sign that the new worker took over comes first. */
function reloadOnce(): void {
  if (reloading) return;
  reloading = true;
  window.location.reload();
}

export function registerAppWorker(): void {
  let registration: ServiceWorkerRegistration | undefined;
  registerSW({
    immediate: true,
    onRegisteredSW(_url: string, registered: ServiceWorkerRegistration | undefined) {
      registration = registered;
    },
    onNeedRefresh() {
      newVersionReady(() => switchToWaitingWorker(registration, navigator.serviceWorker, reloadOnce));
    },
    // Another tab's reload switched the worker under this one: its build's files may be
    // gone from the cache, so it reloads into the new build too.
    onNeedReload: reloadOnce,
    onRegisterError(error: unknown) {
      console.warn('The offline app could not be installed', error);
    },
  });
}
