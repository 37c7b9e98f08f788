import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { matchPath } from 'react-router';
import { meQueryOptions } from '@/features/auth/api/auth';
import { defaultAnalyticsRange } from '@/features/analytics/api/address';
import { analyticsQueryOptions } from '@/features/analytics/api/analytics';
import { clientProfileQueryOptions } from '@/features/clients/api/get-client-profile';
import { clientsQueryFor } from '@/features/clients/api/address';
import { clientsQueryOptions } from '@/features/clients/api/get-clients';
import { dashboardQueryOptions } from '@/features/dashboard/api/get-dashboard';
import { intakeQueryOptions } from '@/features/intake/api/get-intake';
import { PUBLIC_ROUTES as ROUTES_OUTSIDE, STAFF_ROUTES as ROUTES_INSIDE } from './routes';

/**
 * Every screen is its own chunk, fetched when its route is first shown, so the dashboard
 * loads only what it draws: charts (analytics), the settings and template editors and the
 * visits calendar each come on demand. The family's pages are a page of their own
 * (src/family.tsx).
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

/** The screens whose chunk has arrived, by name. */
const loadedScreens = new Map<ScreenName, ComponentType>();

/** Fetches a screen's chunk (once; the browser keeps the module) and remembers the screen. */
export function loadScreen(name: ScreenName): Promise<{ default: ComponentType }> {
  return screens[name]().then((module) => {
    loadedScreens.set(name, module.default);
    return module;
  });
}

/** The screen, when its chunk has already arrived. */
export function loadedScreen(name: ScreenName): ComponentType | undefined {
  return loadedScreens.get(name);
}

/** The pages outside the signed-in shell and the staff's screens (see routes.ts). */
export const PUBLIC_ROUTES: readonly (readonly [string, ScreenName])[] = ROUTES_OUTSIDE;
export const STAFF_ROUTES: readonly (readonly [string, ScreenName])[] = ROUTES_INSIDE;

const STAFF_SCREENS: ReadonlySet<ScreenName> = new Set(['DashboardPage', ...STAFF_ROUTES.map(([, name]) => name)]);

/** The screen `pathname` opens and its path's parameters. */
function matchScreen(pathname: string): { name: ScreenName; params: Record<string, string | undefined> } | null {
  if (pathname === '/') return { name: 'DashboardPage', params: {} };
  const routes = [...PUBLIC_ROUTES, ...STAFF_ROUTES.map(([path, name]) => [`/${path}`, name] as const)];
  for (const [path, name] of routes) {
    const match = matchPath(path, pathname);
    if (match) return { name, params: match.params };
  }
  return null;
}

/** The screen `pathname` opens, if it is one of the app's routes. */
export function screenFor(pathname: string): ScreenName | null {
  return matchScreen(pathname)?.name ?? null;
}

/**
 * What the first screen shows first, asked for with the same query (same key) the screen
 * then reads. Failures stay quiet here (a missing session is a 401 the sign-in answers);
 * the screen asks again and reports them as it always does.
 */
function preloadData(name: ScreenName, params: Record<string, string | undefined>, search: URLSearchParams, client: QueryClient): void {
  const quiet = { meta: { silent: true }, retry: false } as const;
  switch (name) {
    case 'DashboardPage':
      void client.query({ ...dashboardQueryOptions, ...quiet }).catch(() => undefined);
      break;
    case 'ClientsPage':
      void client.query({ ...clientsQueryOptions(clientsQueryFor(search)), ...quiet }).catch(() => undefined);
      break;
    case 'ClientProfilePage':
      if (params.id) void client.query({ ...clientProfileQueryOptions(params.id), ...quiet }).catch(() => undefined);
      break;
    case 'IntakeFormPage': {
      const id = search.get('intake_id');
      if (id) void client.query({ ...intakeQueryOptions(id), ...quiet }).catch(() => undefined);
      break;
    }
    case 'AnalyticsPage': {
      const { from, to } = defaultAnalyticsRange();
      void client.query({ ...analyticsQueryOptions(from, to), ...quiet }).catch(() => undefined);
      break;
    }
    default:
  }
}

/**
 * Starts fetching the first screen's chunk and its data as the app starts, alongside the
 * session check, instead of after it: on a slow network each is a round trip the screen
 * would otherwise wait for in turn. A visitor without a session is sent to sign in as
 * before; the data's answer is then a quiet 401. Answers once the chunk is in (or failed:
 * the screen then asks again and says so).
 */
export function preloadFirstScreen(location: { pathname: string; search: string }, queryClient: QueryClient): Promise<unknown> {
  const found = matchScreen(location.pathname);
  if (!found) return firstScreen;
  // The answers first: the browser sends requests in the order they are made, six at a
  // time, and the screen's chunk brings a dozen more of its own.
  if (STAFF_SCREENS.has(found.name)) void queryClient.query(meQueryOptions).catch(() => undefined);
  preloadData(found.name, found.params, new URLSearchParams(location.search), queryClient);
  firstScreen = loadScreen(found.name).catch(() => undefined);
  return firstScreen;
}

/** The first screen's chunk (and every chunk it imports), once the app has asked for it. */
let firstScreen: Promise<unknown> = Promise.resolve();

/** The screens a coordinator most often opens next from the dashboard. */
const LIKELY_NEXT: readonly (keyof typeof screens)[] = ['ClientsPage', 'ClientProfilePage', 'IntakeFormPage'];

/**
 * Runs `work` once the screen shown has its chunks and its data and the browser is idle,
 * and never before: a browser opens six connections to a server, and requests queued
 * ahead of the screen's own (the likely next screens' forty chunks, the offline copy of
 * the coming visits) would hold it back by seconds on a phone's network. Returns a
 * function that cancels it.
 */
export function afterFirstScreen(queryClient: QueryClient, work: () => void): () => void {
  let timer: number | undefined;
  let idle: number | undefined;
  const whenSettled = () => {
    if (queryClient.isFetching() > 0 || document.readyState !== 'complete') {
      timer = window.setTimeout(whenSettled, 500);
    } else if (typeof window.requestIdleCallback === 'function') {
      idle = window.requestIdleCallback(work, { timeout: 5000 });
    } else {
      work();
    }
  };
  let stopped = false;
  void firstScreen.then(() => {
    if (!stopped) timer = window.setTimeout(whenSettled, 500);
  });
  return () => {
    stopped = true;
    window.clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}

/** Fetches the likely next screens after the first, so the first tap on them does not
 * wait on the network (the chunks are cached and `lazy` finds them there). */
export function prefetchLikelyScreens(queryClient: QueryClient): () => void {
  return afterFirstScreen(queryClient, () => {
    for (const name of LIKELY_NEXT) void loadScreen(name).catch(() => undefined);
  });
}
