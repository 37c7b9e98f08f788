import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { invalidate, STALE_ROOTS } from '@/api/query-keys';
import { AppLayout } from '@/components/layout/app-layout';
import { Loading } from '@/components/loading';
import { meQueryKey, signOut, useMe } from '@/features/auth/api/auth';
import { isApiError, onSignedOut } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';
import { removeLocalDrafts } from '@/lib/local-drafts';
import { confirmLeave } from '@/lib/unsaved-changes';
import { OfflineUnlock } from './offline-unlock';
import { afterFirstScreen, prefetchLikelyScreens } from './screens';

export function loginPath(pathname: string, search: string): string {
  const next = pathname + search;
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

/** Every route but /login needs a session; without one the user signs in and comes back here. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    onSignedOut(() => {
      void queryClient.cancelQueries();
      queryClient.setQueryData(meQueryKey, null);
    });
  }, [queryClient]);

  // A user who must set up a second factor reaches only Your Account until they do.
  useLiveEvents(Boolean(me.data) && !me.data?.needs_second_factor);

  // A tab that started without a network read the user from the offline copy: back
  // online, the server says whether the session still holds (TanStack Query's refetch on
  // reconnect misses the first `online` of a page that started offline).
  useEffect(() => {
    const check = () => void invalidate(queryClient, [meQueryKey]);
    window.addEventListener('online', check);
    return () => window.removeEventListener('online', check);
  }, [queryClient]);

  const signedIn = Boolean(me.data);
  useEffect(() => (signedIn ? prefetchLikelyScreens(queryClient) : undefined), [signedIn, queryClient]);

  // The assessor's coming visits are kept on the device, and drafts saved there are sent
  // when the network is back (src/lib/offline). Started once the first screen has its data.
  const userId = me.data && !me.data.needs_second_factor ? me.data.id : null;
  useEffect(() => {
    if (!userId) return undefined;
    let stop = () => {};
    let cancelled = false;
    const start = () => void import('@/lib/offline/runtime').then(({ onSynced, startOfflineCopy }) => {
      if (cancelled) return;
      const stopCopy = startOfflineCopy(userId);
      const stopListening = onSynced((report) => {
        // A synced assessment writes the client's timeline; a care plan asked for offline too.
        void invalidate(queryClient, [...STALE_ROOTS.assessment, ...STALE_ROOTS.care_plan]);
        if (report.sent.length > 0) toast.success('Assessment Synced', { description: 'The assessment saved on this device is now saved on the server.' });
        if (report.carePlans.length > 0) toast.success('Care Plan Created', { description: 'The care plan asked for offline was generated from the synced assessment.' });
        for (const failure of report.carePlanFailures) toast.error('Care Plan Not Created', { description: failure.message });
        if (report.conflicts.length > 0) toast.warning('Assessment Changed Meanwhile', { description: 'Choose, field by field, which version to keep.' });
      });
      stop = () => {
        stopCopy();
        stopListening();
      };
    });
    const waiting = afterFirstScreen(queryClient, start);
    return () => {
      cancelled = true;
      waiting();
      stop();
    };
  }, [userId, queryClient]);

  if (me.isPending) return <Loading text="Loading Carepath..." />;
  // Not signed out: the server is out of reach and this tab holds no key to the offline
  // copy (a tab opened anew without a network). Sending the user to sign in would help
  // nothing: the password of the last sign-in here opens the copy, and the session is
  // checked again when the network is back.
  if (!me.data && me.isError && isApiError(me.error) && me.error.status === 0) return <OfflineUnlock onBack={() => void me.refetch()} onOpened={() => void me.refetch()} />;
  if (!me.data) return <Navigate to={loginPath(location.pathname, location.search)} replace />;

  const user = me.data;
  if (user.needs_second_factor && location.pathname !== '/account') return <Navigate to="/account" replace />;
  const handleSignOut = async () => {
    if (!(await confirmLeave())) return;
    removeLocalDrafts(user.id);
    try {
      // What the device took offline leaves with the user: drafts go to the server first
      // when they can, then the database and this tab's key are erased.
      const { settle, syncNow } = await import('@/lib/offline/runtime');
      await settle();
      if (navigator.onLine) await syncNow().catch(() => undefined);
      await settle();
      const { wipeOfflineCopy } = await import('@/lib/offline/copy');
      await wipeOfflineCopy().catch(() => undefined);
      await signOut();
    } finally {
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
      void navigate('/login', { replace: true });
    }
  };

  return <AppLayout userName={user.full_name || user.email} isAdmin={user.is_admin} onSignOut={() => void handleSignOut()} />;
}
