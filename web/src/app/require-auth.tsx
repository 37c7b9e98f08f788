import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { Loading } from '@/components/loading';
import { meQueryKey, signOut, useMe } from '@/features/auth/api/auth';
import { onSignedOut } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';
import { removeLocalDrafts } from '@/lib/local-drafts';
import { confirmLeave } from '@/lib/unsaved-changes';
import { prefetchLikelyScreens } from './screens';

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

  const signedIn = Boolean(me.data);
  useEffect(() => (signedIn ? prefetchLikelyScreens(queryClient) : undefined), [signedIn, queryClient]);

  if (me.isPending) return <Loading text="Loading Carepath..." />;
  if (!me.data) return <Navigate to={loginPath(location.pathname, location.search)} replace />;

  const user = me.data;
  if (user.needs_second_factor && location.pathname !== '/account') return <Navigate to="/account" replace />;
  const handleSignOut = async () => {
    if (!(await confirmLeave())) return;
    removeLocalDrafts(user.id);
    try {
      await signOut();
    } finally {
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
      void navigate('/login', { replace: true });
    }
  };

  return <AppLayout userName={user.full_name || user.email} isAdmin={user.is_admin} onSignOut={() => void handleSignOut()} />;
}
