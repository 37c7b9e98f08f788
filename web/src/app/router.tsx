import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Loading } from '@/components/loading';
import { NotFoundPage } from '@/components/not-found-page';
import { RequireAuth } from './require-auth';
import { loadedScreen, loadScreen, PUBLIC_ROUTES, screens, STAFF_ROUTES, type ScreenName } from './screens';

const lazyScreens = {} as Record<ScreenName, LazyExoticComponent<ComponentType>>;
for (const name of Object.keys(screens) as ScreenName[]) lazyScreens[name] = lazy(() => loadScreen(name));

/**
 * A screen whose chunk has already arrived (the first screen's, fetched as the app
 * starts, or a likely next one fetched ahead) renders at once. Through `lazy` it would
 * suspend for a moment all the same, and React shows a boundary's content no sooner than
 * 300 ms after its fallback: the dashboard sat idle that long with its data in hand.
 * Chosen once per mount, so a screen never swaps component (and loses its state).
 */
function Screen({ name }: { name: ScreenName }) {
  const [Component] = useState(() => loadedScreen(name) ?? lazyScreens[name]);
  return <Component />;
}

const page = (name: ScreenName) => (
  <Suspense fallback={<Loading />}>
    {/* Keyed: routes share this spot in the layout, and each screen is a mount of its own. */}
    <Screen key={name} name={name} />
  </Suspense>
);

export function createAppRouter() {
  return createBrowserRouter([
    // The sign-in page and the first run: outside the signed-in shell. (The family's links
    // are a page of their own, src/family.tsx.)
    ...PUBLIC_ROUTES.map(([path, name]) => ({ path, element: page(name) })),
    {
      element: <RequireAuth />,
      children: [
        { index: true, element: page('DashboardPage') },
        ...STAFF_ROUTES.map(([path, name]) => ({ path, element: page(name) })),
        { path: 'index.html', element: <Navigate to="/" replace /> },
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
