import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Loading } from '@/components/loading';
import { NotFoundPage } from '@/components/not-found-page';
import { RequireAuth } from './require-auth';
import { PUBLIC_ROUTES, screens, STAFF_ROUTES, type ScreenName } from './screens';

const page = (Component: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<Loading />}>
    <Component />
  </Suspense>
);

const lazyScreens = {} as Record<ScreenName, LazyExoticComponent<ComponentType>>;
for (const name of Object.keys(screens) as ScreenName[]) lazyScreens[name] = lazy(screens[name]);

export function createAppRouter() {
  return createBrowserRouter([
    // The sign-in page and the family's pages (reached by a personal link): outside the signed-in shell.
    ...PUBLIC_ROUTES.map(([path, name]) => ({ path, element: page(lazyScreens[name]) })),
    {
      element: <RequireAuth />,
      children: [
        { index: true, element: page(lazyScreens.DashboardPage) },
        ...STAFF_ROUTES.map(([path, name]) => ({ path, element: page(lazyScreens[name]) })),
        { path: 'index.html', element: <Navigate to="/" replace /> },
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
