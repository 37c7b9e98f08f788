import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/api/query-keys';
import { defaultAnalyticsRange } from '@/features/analytics/api/address';
import { queryFirstDataOf } from './query-first-data';
import { contractForSigningQueryOptions, proposalLetterQueryOptions } from '@/features/signing/api/public';
import { familyRoute, type FamilyRoute } from './family-route';
import { FAMILY_ROUTES, FIRST_DATA, firstDataOf, QUERY_FIRST_DATA_ROUTES, SESSION_CHECK, STAFF_ROUTES } from './routes';
import { preloadFirstScreen, screenFor } from './screens';

describe('screenFor', () => {
  it('names the screen each route opens, so its chunk is fetched with the session check', () => {
    expect(screenFor('/')).toBe('DashboardPage');
    expect(screenFor('/dashboard')).toBe('DashboardPage');
    expect(screenFor('/clients')).toBe('ClientsPage');
    expect(screenFor('/today')).toBe('TodayPage');
    expect(screenFor('/clients/01a20000-0000-7000-8000-000000000000')).toBe('ClientProfilePage');
    expect(screenFor('/settings/templates')).toBe('MessageTemplatesPage');
  });

  it('names none for a path outside the route table', () => {
    expect(screenFor('/nowhere')).toBeNull();
    // The family's links are a page of their own (src/family.tsx), not the app's.
    expect(screenFor('/approve/abc')).toBeNull();
    expect(screenFor('/sign/abc')).toBeNull();
    expect(screenFor('/clients/1/extra')).toBeNull();
  });
});

describe('preloadFirstScreen', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The keys of the queries the app starts with the session check for `url`. */
  function preloaded(url: string): unknown[] {
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => undefined)));
    const client = new QueryClient();
    const { pathname, search } = new URL(url, 'http://localhost');
    void preloadFirstScreen({ pathname, search }, client);
    return client.getQueryCache().getAll().map((query) => query.queryKey);
  }

  it('asks for the session and the first screen’s data under the keys the screens read', () => {
    const id = '01a20000-0000-7000-8000-000000000000';
    expect(preloaded('/')).toEqual([queryKeys.me, queryKeys.dashboard]);
    expect(preloaded(`/clients/${id}`)).toEqual([queryKeys.me, queryKeys.client(id)]);
    expect(preloaded(`/intake?intake_id=${id}`)).toEqual([queryKeys.me, queryKeys.intake(id)]);
    const { from, to } = defaultAnalyticsRange();
    expect(preloaded('/analytics')).toEqual([queryKeys.me, queryKeys.analytics(from, to)]);
    // The clients page's first page: the address's stage and owner, no search, no cursor.
    expect(preloaded('/clients?filter=care-plan&owner=me')).toEqual([
      queryKeys.me,
      queryKeys.clientList({ stage: 'care_plan', urgency: undefined, q: undefined, owner: 'me', cursor: null }),
    ]);
  });

  it('asks only for the session on a staff screen it does not know the data of, and nothing elsewhere', () => {
    expect(preloaded('/settings')).toEqual([queryKeys.me]);
    expect(preloaded('/nowhere')).toEqual([]);
  });

  it('asks exactly the data routes.ts says, so the page the server sends names what the screen uses', () => {
    const staff = new Set(['/', ...STAFF_ROUTES.map(([path]) => `/${path}`)]);
    const family = new Set<string>(FAMILY_ROUTES.map(([path]) => path));
    for (const [route, data] of Object.entries(FIRST_DATA)) {
      if (family.has(route)) continue;
      const fill = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => `${name}-01a2`);
      const fetched = vi.fn<(url: string) => Promise<Response>>(() => new Promise<Response>(() => undefined));
      vi.stubGlobal('fetch', fetched);
      void preloadFirstScreen({ pathname: fill(route), search: '' }, new QueryClient());
      const asked = fetched.mock.calls.map(([url]) => url);
      expect(asked, route).toEqual([...(staff.has(route) ? [SESSION_CHECK] : []), ...data.map(fill)]);
      // The page's own first-data script (src/first-data.ts) asks the same.
      expect(firstDataOf(fill(route)), route).toEqual(asked);
    }
  });
});

describe('the family’s page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks first exactly the data routes.ts says, so the page the server sends names it', async () => {
    const token = 'AbC_d-9';
    // What each page asks first (approve-page.tsx, sign-page.tsx).
    const asks: Record<FamilyRoute['screen'], (client: QueryClient) => Promise<unknown>> = {
      ApprovePage: (client) => client.query(proposalLetterQueryOptions(token)),
      SignPage: (client) => client.query(contractForSigningQueryOptions(token)),
    };
    for (const [route] of FAMILY_ROUTES) {
      const screen = familyRoute(route.replace(':token', token))?.screen;
      expect(screen, route).toBeDefined();
      if (!screen) continue;
      const fetched = vi.fn<(url: string) => Promise<Response>>(() => Promise.resolve(Response.json({})));
      vi.stubGlobal('fetch', fetched);
      await asks[screen](new QueryClient());
      const asked = fetched.mock.calls.map(([url]) => url);
      expect(asked, route).toEqual(FIRST_DATA[route]?.map((path) => path.replace(':token', token)));
      expect(firstDataOf(route.replace(':token', token)), route).toEqual(asked);
    }
  });
});

describe('queryFirstDataOf', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names what the clients list, the intake form and analytics ask first, as the app asks it', () => {
    const urls = ['/clients', '/clients?filter=care-plan&owner=me', '/clients?owner=unassigned&filter=nonsense', '/intake?intake_id=01a2-b', '/analytics'];
    for (const url of urls) {
      const fetched = vi.fn<(url: string) => Promise<Response>>(() => new Promise<Response>(() => undefined));
      vi.stubGlobal('fetch', fetched);
      const { pathname, search } = new URL(url, 'http://localhost');
      void preloadFirstScreen({ pathname, search }, new QueryClient());
      expect(queryFirstDataOf(pathname, search), url).toEqual(fetched.mock.calls.map(([asked]) => asked));
    }
    expect(queryFirstDataOf('/clients', '?filter=care-plan&owner=me')).toEqual([SESSION_CHECK, '/api/clients?stage=care_plan&owner=me']);
    const { from, to } = defaultAnalyticsRange();
    expect(queryFirstDataOf('/analytics', '')).toEqual([SESSION_CHECK, `/api/analytics?from=${from}&to=${to}`]);
  });

  it('is asked only on the routes routes.ts lists, where the server leaves the first-data script in the page', () => {
    const paths = ['/', ...STAFF_ROUTES.map(([path]) => `/${path}`)];
    const withQueryData = paths.filter((path) => queryFirstDataOf(path, '?intake_id=01a2').length > 0);
    expect(withQueryData).toEqual([...QUERY_FIRST_DATA_ROUTES]);
  });

  it('names nothing elsewhere, or for an intake form with no intake or one whose id is not plain', () => {
    expect(queryFirstDataOf('/', '?filter=intake')).toEqual([]);
    expect(queryFirstDataOf('/intake', '')).toEqual([]);
    expect(queryFirstDataOf('/intake', '?intake_id=a%22b')).toEqual([]);
  });
});

describe('firstDataOf', () => {
  it('names nothing for a path with no first data, or a parameter that is not plain', () => {
    expect(firstDataOf('/settings')).toEqual([]);
    expect(firstDataOf('/nowhere')).toEqual([]);
    expect(firstDataOf('/clients/1/extra')).toEqual([]);
    expect(firstDataOf('/clients/a%22b')).toEqual([]);
    expect(firstDataOf('/approve/')).toEqual([]);
  });
});
