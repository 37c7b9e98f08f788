import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { matchPath } from 'react-router';

/**
 * Every screen is its own chunk, fetched when its route is first shown, so the dashboard
 * loads only what it draws: charts (analytics), the settings and template editors, the
 * visits calendar and the family's pages each come on demand.
 */
export const screens = {
  LoginPage: () => import('@/features/auth/components/login-page'),
  DashboardPage: () => import('@/features/dashboard/components/dashboard-page'),
  TodayPage: () => import('@/features/queue/components/today-page'),
  ClientsPage: () => import('@/features/clients/components/clients-page'),
  ClientProfilePage: () => import('@/features/clients/components/client-profile-page'),
  IntakeFormPage: () => import('@/features/intake/components/intake-form-page'),
  IntakesPage: () => import('@/features/intakes/components/intakes-page'),
  AssessmentsPage: () => import('@/features/assessments/components/assessments-page'),
  AssessmentFormPage: () => import('@/features/assessments/components/assessment-form-page'),
  CarePlansPage: () => import('@/features/care-plans/components/care-plans-page'),
  CarePlanFormPage: () => import('@/features/care-plans/components/care-plan-form-page'),
  ContractsPage: () => import('@/features/contracts/components/contracts-page'),
  ContractFormPage: () => import('@/features/contracts/components/contract-form-page'),
  ApprovePage: () => import('@/features/signing/components/approve-page'),
  SignPage: () => import('@/features/signing/components/sign-page'),
  SettingsPage: () => import('@/features/settings/components/settings-page'),
  PricingPage: () => import('@/features/pricing/components/pricing-page'),
  MessageTemplatesPage: () => import('@/features/message-templates/components/message-templates-page'),
  CommunicationsHubPage: () => import('@/features/communications-hub/components/communications-hub-page'),
  AnalyticsPage: () => import('@/features/analytics/components/analytics-page'),
  ContractTemplatePage: () => import('@/features/contract-template/components/contract-template-page'),
  AdminPage: () => import('@/features/admin/components/admin-page'),
  VisitsPage: () => import('@/features/visits/components/visits-page'),
  SetupPage: () => import('@/features/setup/components/setup-page'),
  AccountPage: () => import('@/features/account/components/account-page'),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

export type ScreenName = keyof typeof screens;

/**
 * The pages outside the signed-in shell: sign-in, the first run (reached by the one-time
 * link `carepath serve` prints) and the family's personal links.
 */
export const PUBLIC_ROUTES: readonly (readonly [string, ScreenName])[] = [
  ['/login', 'LoginPage'],
  ['/setup', 'SetupPage'],
  ['/approve/:token', 'ApprovePage'],
  ['/sign/:token', 'SignPage'],
];

/** The staff's screens, inside the signed-in shell (`/` is the dashboard too). */
export const STAFF_ROUTES: readonly (readonly [string, ScreenName])[] = [
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
];

/** The screen `pathname` opens, if it is one of the app's routes. */
export function screenFor(pathname: string): ScreenName | null {
  if (pathname === '/') return 'DashboardPage';
  const routes = [...PUBLIC_ROUTES, ...STAFF_ROUTES.map(([path, name]) => [`/${path}`, name] as const)];
  return routes.find(([path]) => matchPath(path, pathname))?.[1] ?? null;
}

/**
 * Starts fetching the first screen's chunk (and the dashboard's answer) as the app starts,
 * alongside the session check, instead of after it: on a slow network each is a round
 * trip the screen would otherwise wait for in turn. A visitor without a session is sent
 * to sign in as before; the dashboard's answer is then a quiet 401.
 */
export function preloadFirstScreen(pathname: string, queryClient: QueryClient): void {
  const name = screenFor(pathname);
  if (!name) return;
  void screens[name]().catch(() => undefined);
  if (name === 'DashboardPage') {
    void import('@/features/dashboard/api/get-dashboard')
      .then(({ dashboardQueryOptions }) => queryClient.query(dashboardQueryOptions))
      .catch(() => undefined);
  }
}

/** The screens a coordinator most often opens next from the dashboard. */
const LIKELY_NEXT: readonly (keyof typeof screens)[] = ['ClientsPage', 'ClientProfilePage', 'IntakeFormPage'];

/**
 * Fetches the likely next screens once the browser is idle, so the first tap on them
 * does not wait on the network (the chunks are cached and `lazy` finds them there).
 */
export function prefetchLikelyScreens(): () => void {
  const load = () => {
    for (const name of LIKELY_NEXT) void screens[name]().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(load, { timeout: 5000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(load, 2000);
  return () => window.clearTimeout(handle);
}
