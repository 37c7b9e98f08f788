/**
 * The one place that knows whether a form on screen holds unsaved changes: forms report
 * here, and the leave guard, the keyboard shortcuts and sign-out ask here.
 */
import { useEffect, useState } from 'react';

/** Each dirty form, with what it does when the user chooses to leave it unsaved. */
const dirtyForms = new Map<symbol, (() => void) | undefined>();

/** True while any mounted form differs from what it last loaded or saved. */
export function hasUnsavedChanges(): boolean {
  return dirtyForms.size > 0;
}

function report(token: symbol, dirty: boolean, onDiscard?: () => void): void {
  if (dirty) dirtyForms.set(token, onDiscard);
  else dirtyForms.delete(token);
}

/** The user chose to leave anyway: nothing on screen counts as unsaved until it changes again. */
export function discardUnsavedChanges(): void {
  const discarded = [...dirtyForms.values()];
  dirtyForms.clear();
  for (const onDiscard of discarded) onDiscard?.();
}

/**
 * Reports one form's `dirty` to the guard. `settle` marks the form clean at once, so a
 * navigation made right after a save (before the next render) is not taken for leaving.
 */
export function useUnsavedChanges(dirty: boolean, onDiscard?: () => void): { settle: () => void } {
  const [token] = useState(() => Symbol('form'));
  // Every render re-reports, so a `settle` made too early is corrected by the next one.
  useEffect(() => {
    report(token, dirty, onDiscard);
  });
  useEffect(() => () => report(token, false), [token]);
  return { settle: () => report(token, false) };
}

type LeaveAnswer = (leave: boolean) => void;
let pendingLeave: LeaveAnswer | null = null;
const leaveListeners = new Set<() => void>();

function notifyLeave(): void {
  for (const listener of leaveListeners) listener();
}

/** For the guard: a leave that is not a navigation (signing out) and waits for an answer. */
export function subscribeLeaveRequest(listener: () => void): () => void {
  leaveListeners.add(listener);
  return () => leaveListeners.delete(listener);
}

export function pendingLeaveRequest(): LeaveAnswer | null {
  return pendingLeave;
}

/**
 * Asks the user before an action that would throw unsaved changes away; resolves true at
 * once when nothing is unsaved, or when no guard is mounted to ask.
 */
export function confirmLeave(): Promise<boolean> {
  if (!hasUnsavedChanges() || leaveListeners.size === 0) return Promise.resolve(true);
  pendingLeave?.(false);
  return new Promise((resolve) => {
    pendingLeave = (leave) => {
      pendingLeave = null;
      if (leave) discardUnsavedChanges();
      notifyLeave();
      resolve(leave);
    };
    notifyLeave();
  });
}
