import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginPath, RequireAuth } from './require-auth';

function LoginProbe() {
  const location = useLocation();
  return <p>login page {location.search}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginProbe /> },
      { element: <RequireAuth />, children: [{ path: '/clients', element: <p>clients page</p> }] },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

function stubFetch(status: number, body: unknown) {
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }))));
}

describe('RequireAuth', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends a signed-out user to sign in and remembers the route', async () => {
    stubFetch(401, { error: { code: 'unauthenticated', message: 'Not signed in' } });
    renderAt('/clients?filter=intake');
    expect((await screen.findByText(/login page/)).textContent).toBe(`login page ?next=${encodeURIComponent('/clients?filter=intake')}`);
  });

  it('shows the page to a signed-in user', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
    stubFetch(200, { id: 'u1', email: 'a@b.c', full_name: 'Avery', is_admin: false });
    renderAt('/clients');
    expect(await screen.findByText('clients page')).toBeTruthy();
  });

  it('builds the sign-in path', () => {
    expect(loginPath('/', '')).toBe('/login');
    expect(loginPath('/intake', '?intake_id=1')).toBe('/login?next=%2Fintake%3Fintake_id%3D1');
  });
});
