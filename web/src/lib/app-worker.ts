/**
 * Registers the service worker (vite-plugin-pwa, Workbox): it precaches this build's page
 * and files so the app opens without a network. A new build's worker waits; the notice
 * (app-update.ts) tells it to take over, and the page reloads once it has.
 */
import { registerSW } from 'virtual:pwa-register';
import { newVersionReady } from './app-update';

export function registerAppWorker(): void {
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      newVersionReady(() => void update(true));
    },
    onRegisterError(error: unknown) {
      console.warn('The offline app could not be installed', error);
    },
  });
}
