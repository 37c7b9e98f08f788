import { setNonce } from 'get-nonce';

/**
 * Radix's modal dialogs lock page scroll with a `<style>` element whose sizes are
 * measured at run time; the server's Content-Security-Policy admits it only with the
 * nonce it wrote into the page's `<meta name="csp-nonce">`. Without a server (the Vite
 * dev server) the placeholder stays and no policy applies.
 */
export function adoptCspNonce(doc: Document = document): string | undefined {
  const nonce = doc.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (!nonce || nonce === 'CAREPATH_CSP_NONCE') return undefined;
  setNonce(nonce);
  return nonce;
}
