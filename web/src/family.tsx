// The family's page: the proposal to approve or the agreement to sign, from a personal
// link. A page of its own (family.html), not a route of the staff app: a family opens it
// once or twice on a phone and needs neither the app's router, its shell nor its offline
// worker, so the page loads a third less script. The server sends it for FAMILY_ROUTES.
// Its own worker (FAMILY_WORKER) keeps the page and its scripts for the next visit.
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { FAMILY_ROUTES, FAMILY_WORKER } from './app/routes';
import { Toasts } from './components/toasts';
import ApprovePage from './features/signing/components/approve-page';
import { LinkProblem } from './features/signing/components/public-layout';
import SignPage from './features/signing/components/sign-page';
import { adoptCspNonce } from './lib/csp-nonce';
import { createQueryClient } from './lib/query-client';
import './index.css';

adoptCspNonce();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

/** The page `pathname` opens (`/approve/:token`, `/sign/:token`), with its link's token. */
function familyPage(pathname: string): ReactNode {
  const [, head, token, ...rest] = pathname.split('/');
  const route = FAMILY_ROUTES.find(([path]) => path === `/${head}/:token`);
  if (!route || !token || rest.length > 0) return <LinkProblem error={null} />;
  // A token that is no link's gets the server's one answer for bad links.
  return route[1] === 'ApprovePage' ? <ApprovePage token={token} /> : <SignPage token={token} />;
}

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      {familyPage(window.location.pathname)}
      <Toasts />
    </QueryClientProvider>
  </StrictMode>,
);

// Registered once the letter is shown, for this link's path only (`/approve/`, `/sign/`):
// the staff app's worker keeps the rest of the site.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    const scope = `/${window.location.pathname.split('/')[1] ?? ''}/`;
    navigator.serviceWorker.register(`/${FAMILY_WORKER}`, { scope }).catch((error: unknown) => console.warn('The page could not be kept for the next visit', error));
  });
}
