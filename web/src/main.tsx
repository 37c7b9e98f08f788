import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadFirstScreen } from './app/screens';
import { markAppStarted } from './lib/app-started';
import { adoptCspNonce } from './lib/csp-nonce';
import { createQueryClient } from './lib/query-client';
import './index.css';

adoptCspNonce();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The app is drawn once the first screen's chunk is in; the page says "Loading
// Carepath..." until then. The page asked for the chunk with the entry, so it is in or
// nearly; drawn before, the screen would suspend, and React shows a suspended screen no
// sooner than 300 ms after its fallback: the dashboard sat idle that long with its data
// in hand.
const queryClient = createQueryClient();
markAppStarted();
void preloadFirstScreen(window.location, queryClient).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);

// The offline app (service worker) registers after the first screen has what it needs.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => void import('./lib/app-worker').then(({ registerAppWorker }) => registerAppWorker()));
}
