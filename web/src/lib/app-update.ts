/**
 * A new build of the app is ready: the service worker of the build the server now serves
 * has installed and waits. Nothing switches until the user reloads from the notice, so a
 * page never runs half on one build's files and half on another's.
 */
import { useSyncExternalStore } from 'react';

let reload: (() => void) | null = null;
const listeners = new Set<() => void>();

/** Called by the worker's registration (app-worker.ts) when a new build waits. */
export function newVersionReady(activate: () => void): void {
  reload = activate;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The parts of the browser's service worker API the switch uses (faked in tests). */
export interface WorkerContainer {
  addEventListener(type: 'controllerchange', listener: () => void): void;
  removeEventListener(type: 'controllerchange', listener: () => void): void;
}

/**
 * Tells the waiting worker to take over and reloads once it has, following the worker's
 * own state: on `controllerchange` (this page now has the new worker), or when the worker
 * is `activated` (a page the old worker did not control gets no `controllerchange`, and
 * would otherwise never reload). Reloads at once when no worker waits any more (another
 * tab switched already). Never reloads before the new worker is active: the reloaded page
 * would come from the old worker, whose build the server may no longer have.
 */
export function switchToWaitingWorker(registration: Pick<ServiceWorkerRegistration, 'waiting'> | undefined, container: WorkerContainer, reload: () => void): void {
  const worker = registration?.waiting;
  if (!worker) return reload();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    container.removeEventListener('controllerchange', finish);
    reload();
  };
  container.addEventListener('controllerchange', finish);
  worker.addEventListener('statechange', () => {
    if (worker.state === 'activated') finish();
  });
  // Workbox's generated worker takes over on this message (skipWaiting).
  worker.postMessage({ type: 'SKIP_WAITING' });
}

/** How to switch to the waiting build, or null while none waits. */
export function useNewVersion(): (() => void) | null {
  return useSyncExternalStore(
    subscribe,
    () => reload,
    () => null,
  );
}
