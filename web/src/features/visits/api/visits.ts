import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, STALE_ROOTS, useInvalidate } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { AssessmentVisit, CalendarFeedAddress, CalendarFeedStatus, IntakeRecord, ProfileList, VisitAnswer, VisitInput, VisitList, VisitPage, VisitRange } from './types';

/** A week holds at most a few hundred visits: one page of the most the list gives. */
const RANGE_LIMIT = 200;

export function visitsQueryOptions(range: VisitRange) {
  return queryOptions({
    queryKey: queryKeys.visitList(range),
    queryFn: ({ signal }) =>
      api.get<VisitPage>('/api/visits', { from: range.from, to: range.to, assessor_id: range.assessor_id || undefined, limit: RANGE_LIMIT }, signal),
    meta: { errorMessage: 'Failed to load visits' },
  });
}

export function useVisits(range: VisitRange) {
  return useQuery(visitsQueryOptions(range));
}

export function intakeVisitsQueryOptions(intakeId: string) {
  return queryOptions({
    queryKey: queryKeys.intakeVisits(intakeId),
    queryFn: ({ signal }) => api.get<VisitList>(`/api/intakes/${intakeId}/visits`, undefined, signal),
    meta: { errorMessage: 'Failed to load visits' },
  });
}

export function useIntakeVisits(intakeId: string | null) {
  return useQuery({ ...intakeVisitsQueryOptions(intakeId ?? ''), enabled: Boolean(intakeId) });
}

/** The client's intake, under the intake screen's own cache key, for a new visit's place. */
export function useIntakeRecord(intakeId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.intake(intakeId),
    queryFn: ({ signal }) => api.get<IntakeRecord>(`/api/intakes/${intakeId}`, undefined, signal),
    meta: { errorMessage: 'Failed to load intake' },
    staleTime: Infinity,
    enabled: enabled && Boolean(intakeId),
  });
}

/** The packet an assessor takes to the visit: a PDF the server draws, opened in a new tab. */
export function visitPacketUrl(visitId: string): string {
  return `/api/visits/${encodeURIComponent(visitId)}/packet.pdf`;
}

/** A visit's move changes the client's status and timeline too. */
function useRefreshAfterMove() {
  const invalidate = useInvalidate();
  return () => invalidate(STALE_ROOTS.assessment_visit);
}

export function useScheduleVisit(intakeId: string) {
  const refresh = useRefreshAfterMove();
  return useMutation({
    mutationFn: (input: VisitInput) => api.post<VisitAnswer>(`/api/intakes/${intakeId}/visits`, input),
    onSettled: refresh,
  });
}

export function useRescheduleVisit() {
  const refresh = useRefreshAfterMove();
  return useMutation({
    mutationFn: ({ visit, input }: { visit: AssessmentVisit; input: VisitInput }) => api.put<VisitAnswer>(`/api/visits/${visit.id}`, { version: visit.version, ...input }),
    onSettled: refresh,
  });
}

export function useCancelVisit() {
  const refresh = useRefreshAfterMove();
  return useMutation({
    mutationFn: ({ visit, reason }: { visit: AssessmentVisit; reason: string }) => api.post<VisitAnswer>(`/api/visits/${visit.id}/cancel`, { version: visit.version, reason }),
    onSettled: refresh,
  });
}

/** The staff an assessor is chosen from (the same list and key as the team-member picker). */
export const assessorsQueryOptions = queryOptions({
  queryKey: queryKeys.users,
  queryFn: ({ signal }) => api.get<ProfileList>('/api/users', undefined, signal),
  staleTime: 5 * 60_000,
  meta: { silent: true },
});

export function useMarkVisitDone() {
  const refresh = useRefreshAfterMove();
  return useMutation({
    mutationFn: (visit: AssessmentVisit) => api.post<AssessmentVisit>(`/api/visits/${visit.id}/done`, { version: visit.version }),
    onSettled: refresh,
  });
}

export function useCalendarFeed() {
  return useQuery({ queryKey: queryKeys.calendarFeed, queryFn: ({ signal }) => api.get<CalendarFeedStatus>('/api/calendar-feed', undefined, signal), meta: { silent: true } });
}

export function useCreateCalendarFeed() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.post<CalendarFeedAddress>('/api/calendar-feed'),
    meta: { errorMessage: 'Failed to create the calendar feed' },
    onSettled: () => invalidate([queryKeys.calendarFeed]),
  });
}

export function useRevokeCalendarFeed() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.delete<undefined>('/api/calendar-feed'),
    meta: { errorMessage: 'Failed to revoke the calendar feed' },
    onSettled: () => invalidate([queryKeys.calendarFeed]),
  });
}
