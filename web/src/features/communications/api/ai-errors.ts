import { isApiError } from '@/lib/api-client';

/** The spec's texts for a failed AI draft. */
export function aiDraftErrorText(error: unknown, fallback: string): string {
  const text = error instanceof Error ? error.message : String(error);
  if ((isApiError(error) && error.status === 429) || text.includes('429')) return 'Rate limit exceeded. Please try again later.';
  if ((isApiError(error) && error.status === 402) || text.includes('402')) return 'Payment required. Please add credits to continue.';
  return text || fallback;
}
