import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { Loading } from '@/components/loading';
import { meQueryKey, signOut, useMe } from '@/features/auth/api/auth';
import { onSignedOut } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';

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

  useLiveEvents(Boolean(me.data));

  if (me.isPending) return <Loading text="Loading Carepath..." />;
  if (!me.data) return <Navigate to={loginPath(location.pathname, location.search)} replace />;

  const handleSignOut = async () => {
    try {
      await signOut();
    } finally {
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
      void navigate('/login', { replace: true });
    }
  };

  return <AppLayout userName={me.data.full_name || me.data.email} isAdmin={me.data.is_admin} onSignOut={() => void handleSignOut()} />;
}
