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

/** How to switch to the waiting build, or null while none waits. */
export function useNewVersion(): (() => void) | null {
  return useSyncExternalStore(
    subscribe,
    () => reload,
    () => null,
  );
}
