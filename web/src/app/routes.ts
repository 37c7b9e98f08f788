// The app's routes and the screen each opens, as plain data: the router reads them, and so
// does the build (vite.config.ts), which writes for each route the chunks its screen
// needs, for the server to name in the page it sends (`<link rel="modulepreload">`).
// Screen names are the screens' file names in PascalCase (`ClientsPage`: clients-page.tsx).

/**
 * The app's pages outside the signed-in shell: sign-in and the first run (reached by the
 * one-time link `carepath serve` prints).
 */
export const PUBLIC_ROUTES = [
  ['/login', 'LoginPage'],
  ['/setup', 'SetupPage'],
] as const;

/**
 * The family's personal links. They are a page of their own (family.html, src/family.tsx):
 * a family opens one link on a phone, once or twice, and needs neither the staff app's
 * router nor its shell, so their page loads a third less script.
 */
export const FAMILY_ROUTES = [
  ['/approve/:token', 'ApprovePage'],
  ['/sign/:token', 'SignPage'],
] as const;

/** The staff app's page, which the server sends for every other path. */
export const APP_PAGE = 'index.html';

/** The page the server sends for the family's links (vite.config.ts builds it). */
export const FAMILY_PAGE = 'family.html';

/** The family's page's own service worker, which keeps that page for the next visit. */
export const FAMILY_WORKER = 'family-sw.js';

/** The staff's screens, inside the signed-in shell (`/` is the dashboard too). */
export const STAFF_ROUTES = [
  ['dashboard', 'DashboardPage'],
  ['today', 'TodayPage'],
  ['clients', 'ClientsPage'],
  ['clients/:id', 'ClientProfilePage'],
  ['intake', 'IntakeFormPage'],
  ['intakes', 'IntakesPage'],
  ['assessments', 'AssessmentsPage'],
  ['assessments/new', 'AssessmentFormPage'],
  ['care-plans', 'CarePlansPage'],
  ['care-plans/new', 'CarePlanFormPage'],
  ['contracts', 'ContractsPage'],
  ['contracts/new', 'ContractFormPage'],
  ['contracts/settings', 'ContractTemplatePage'],
  ['communications', 'CommunicationsHubPage'],
  ['analytics', 'AnalyticsPage'],
  ['visits', 'VisitsPage'],
  ['account', 'AccountPage'],
  ['settings', 'SettingsPage'],
  ['settings/pricing', 'PricingPage'],
  ['settings/templates', 'MessageTemplatesPage'],
  ['admin', 'AdminPage'],
] as const;

/**
 * The routes whose first data the address's query (or the day) decides as well
 * (query-first-data.ts): the server's page names only the session check for them, and
 * the page's own first-data script asks the rest. On any other route's page the server
 * names all the first data itself and leaves that script out, which would otherwise hold
 * one of the browser's six connections for a round trip.
 */
export const QUERY_FIRST_DATA_ROUTES: readonly string[] = ['/clients', '/intake', '/analytics'];

/** What every staff screen asks first: who is signed in. */
export const SESSION_CHECK = '/api/auth/me';

/**
 * The data a screen asks for first when it opens from its address, as paths with the
 * route's parameters (`:id`): the server names them in the page too, so they travel
 * while the scripts load. Only data whose address the route alone decides (a list
 * filtered by the address's query, or a range from the device's clock, is not here);
 * screens.test.ts checks that each is exactly what the screen then asks.
 */
export const FIRST_DATA: Readonly<Record<string, readonly string[]>> = {
  '/': ['/api/dashboard'],
  '/dashboard': ['/api/dashboard'],
  '/clients/:id': ['/api/clients/:id'],
  '/approve/:token': ['/api/public/approve/:token'],
  '/sign/:token': ['/api/public/sign/:token'],
};

/** What the page of `route` asks first, as paths with its parameters: a staff screen's
 * session check, then the route's first data. */
export function firstDataOfRoute(route: string, staff: boolean): string[] {
  return [...(staff ? [SESSION_CHECK] : []), ...(FIRST_DATA[route] ?? [])];
}

/** A route parameter the page's own script may put into an address: plain letters,
 * digits, `-` and `_` (ids and link tokens), as the server also requires. */
export const PLAIN_PARAMETER = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The data the page at `pathname` asks first, session check included for a staff screen,
 * with the route's parameters filled in: what the server names in the page it sends.
 * None when the path is no route with first data, or a parameter is not plain.
 */
export function firstDataOf(pathname: string): string[] {
  for (const route of Object.keys(FIRST_DATA)) {
    const params = matchRoute(route, pathname);
    if (!params) continue;
    const staff = ![...PUBLIC_ROUTES, ...FAMILY_ROUTES].some(([publicRoute]) => publicRoute === route);
    return firstDataOfRoute(route, staff).map((path) => path.replace(/:(\w+)/g, (_, name: string) => params.get(name) ?? ''));
  }
  return [];
}

/** The parameters of `pathname` when it is `route` (`/sign/:token`), each of them plain;
 * null when it is not. */
function matchRoute(route: string, pathname: string): Map<string, string> | null {
  const parts = pathname.split('/');
  const pattern = route.split('/');
  if (pattern.length !== parts.length) return null;
  const params = new Map<string, string>();
  const matches = pattern.every((part, i) => {
    const value = parts[i] ?? '';
    if (!part.startsWith(':')) return part === value;
    params.set(part.slice(1), value);
    return PLAIN_PARAMETER.test(value);
  });
  return matches ? params : null;
}
