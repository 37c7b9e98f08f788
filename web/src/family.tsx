// The family's page: the proposal to approve or the agreement to sign, from a personal
// link. A page of its own (family.html), not a route of the staff app: a family opens it
// once or twice on a phone and needs neither the app's router nor its shell, so the page
// loads a third less script. The server sends it for FAMILY_ROUTES. Its own worker
// (FAMILY_WORKER) keeps the page and its script for the next visit.
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { familyRoute, type FamilyRoute } from './app/family-route';
import { FAMILY_WORKER } from './app/routes';
import { Toasts } from './components/toasts';
import ApprovePage from './features/signing/components/approve-page';
import { LinkProblem } from './features/signing/components/public-layout';
import SignPage from './features/signing/components/sign-page';
import { markAppStarted } from './lib/app-started';
import { adoptCspNonce } from './lib/csp-nonce';
import { createQueryClient } from './lib/query-client';
import './index.css';

const pages = { ApprovePage, SignPage } satisfies Record<FamilyRoute['screen'], ComponentType<{ token: string }>>;

adoptCspNonce();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

const route = familyRoute(window.location.pathname);

/** The link's page; a token that is no link's gets the server's one answer for bad links.
 * (No route: the page opened at an address of no link, `/family.html` itself.) */
function FamilyPage() {
  if (!route) return <LinkProblem error={null} />;
  const Page = pages[route.screen];
  return <Page token={route.token} />;
}

// The page asks for its letter itself from here on (lib/app-started.ts).
markAppStarted();
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <FamilyPage />
      <Toasts />
    </QueryClientProvider>
  </StrictMode>,
);

// Registered for this link's path only (`/approve/`, `/sign/`), once the page has loaded:
// the staff app's worker keeps the rest of the site.
if (route && 'serviceWorker' in navigator && import.meta.env.PROD) {
  const scope = `/${window.location.pathname.split('/')[1] ?? ''}/`;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register(`/${FAMILY_WORKER}`, { scope }).catch((error: unknown) => console.warn('The page could not be kept for the next visit', error));
  });
}
