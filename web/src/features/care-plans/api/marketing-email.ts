import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCarePlanChanged } from './invalidate-care-plans';
import type { MarketingEmail } from './types';

/** Drafts the proposal email (configured AI or the built-in writer) and keeps it with the plan. */
export const draftMarketingEmail = (id: string) => api.post<MarketingEmail>(`/api/care-plans/${id}/marketing-email`);

export function useDraftMarketingEmail() {
  const changed = useCarePlanChanged();
  return useMutation({
    mutationFn: draftMarketingEmail,
    // The dialog words the failure (rate limit, payment, other) itself.
    meta: { silent: true },
    onSuccess: (answer) => changed(answer.care_plan),
  });
}
