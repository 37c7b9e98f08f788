/**
 * Asks before unsaved changes are thrown away: an in-app link, the sidebar, a shortcut, the
 * browser's back button and signing out ask in a dialog; closing or reloading the tab gets
 * the browser's own question.
 */
import { lazy, Suspense, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { discardUnsavedChanges, hasUnsavedChanges, pendingLeaveRequest, subscribeLeaveRequest } from '@/lib/unsaved-changes';

export const LEAVE_TITLE = 'Leave without saving?';
export const LEAVE_TEXT = 'This form has changes that are not saved yet. If you leave now, they are lost.';

// Fetched the first time someone leaves a changed form, not before the first screen.
const ConfirmDialog = lazy(() => import('@/components/confirm-dialog').then((module) => ({ default: module.ConfirmDialog })));

export function UnsavedChangesGuard() {
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      hasUnsavedChanges() && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);
  const leaveRequest = useSyncExternalStore(subscribeLeaveRequest, pendingLeaveRequest);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedChanges()) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  const blocked = blocker.state === 'blocked';
  const open = blocked || leaveRequest !== null;
  // Once shown, the dialog stays mounted so that it closes (and gives focus back) as usual.
  const [shown, setShown] = useState(false);
  if (open && !shown) setShown(true);
  const stay = () => {
    if (blocked) blocker.reset();
    leaveRequest?.(false);
  };
  const leave = () => {
    if (blocked) {
      discardUnsavedChanges();
      blocker.proceed();
    }
    leaveRequest?.(true);
  };

  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!next) stay();
        }}
        title={LEAVE_TITLE}
        description={LEAVE_TEXT}
        cancelLabel="Stay on this page"
        confirmLabel="Leave without saving"
        onConfirm={leave}
      />
    </Suspense>
  );
}
