import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { adoptCspNonce } from './lib/csp-nonce';
import './index.css';

adoptCspNonce();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The offline app (service worker) registers after the first screen has what it needs.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => void import('./lib/app-worker').then(({ registerAppWorker }) => registerAppWorker()));
}
