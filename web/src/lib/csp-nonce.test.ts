import { getNonce } from 'get-nonce';
import { describe, expect, it } from 'vitest';
import { adoptCspNonce } from './csp-nonce';

function page(content: string | null): Document {
  const doc = document.implementation.createHTMLDocument('Carepath');
  if (content !== null) {
    const meta = doc.createElement('meta');
    meta.name = 'csp-nonce';
    meta.content = content;
    doc.head.append(meta);
  }
  return doc;
}

describe('adoptCspNonce', () => {
  it("hands the server's nonce to the libraries that write <style> elements", () => {
    expect(adoptCspNonce(page('bm9uY2Utb2YtdGhpcy1wYWdl'))).toBe('bm9uY2Utb2YtdGhpcy1wYWdl');
    expect(getNonce()).toBe('bm9uY2Utb2YtdGhpcy1wYWdl');
  });

  it('ignores the placeholder the dev server leaves and a page without one', () => {
    expect(adoptCspNonce(page('CAREPATH_CSP_NONCE'))).toBeUndefined();
    expect(adoptCspNonce(page(null))).toBeUndefined();
  });
});
