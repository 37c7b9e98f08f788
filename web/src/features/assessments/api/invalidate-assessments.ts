import { STALE_ROOTS, useInvalidate } from '@/api/query-keys';

/** After an assessment changed: its lists, the client, the counts and its care plans are stale. */
export function useAssessmentChanged() {
  const invalidate = useInvalidate();
  return () => void invalidate(STALE_ROOTS.assessment);
}
