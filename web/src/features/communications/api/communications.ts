import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/api/types';
import type { AiDraftBody, AiDraftResponse, CallBody, Communication, CommunicationList, DraftKind, EmailBody, MessageTemplateList, NoteBody, Parents, PendingAcceptanceAnswer, ProfileList, SmsBody, Visibility } from './types';

export function timelineQueryOptions(parents: Parents, visibility?: Visibility) {
  return queryOptions({
    queryKey: queryKeys.timeline(parents, visibility ?? 'all'),
    queryFn: ({ signal }) => api.get<CommunicationList>('/api/communications', { ...parents, visibility }, signal),
    meta: { silent: true },
  });
}

export function useTimeline(parents: Parents, visibility?: Visibility) {
  return useQuery(timelineQueryOptions(parents, visibility));
}

export const profilesQueryOptions = queryOptions({
  queryKey: queryKeys.users,
  queryFn: ({ signal }) => api.get<ProfileList>('/api/users', undefined, signal),
  staleTime: 5 * 60_000,
  meta: { silent: true },
});

function useSend<TBody>(path: string, errorMessage: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: TBody) => api.post<Communication>(path, body),
    meta: { errorMessage },
    onSettled: () => invalidate([queryKeys.communications]),
  });
}

export const useSendEmail = () => useSend<EmailBody>('/api/communications/email', 'Failed to send email');
export const useSendSms = () => useSend<SmsBody>('/api/communications/sms', 'Failed to send SMS');
export const useAddNote = () => useSend<NoteBody>('/api/communications/notes', 'Failed to add note');
export const useLogCall = () => useSend<CallBody>('/api/communications/calls', 'Failed to log call');

export function useRetrySend() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.post<Communication>(`/api/communications/${id}/retry`),
    meta: { errorMessage: 'Failed to send' },
    onSettled: () => invalidate([queryKeys.communications]),
  });
}

/** The message templates the server offers a send dialog for this client (its stage's, then general ones). */
export function useOfferedTemplates(kind: DraftKind, intakeId: string | null) {
  return useQuery({
    queryKey: queryKeys.offeredTemplates(kind, intakeId),
    queryFn: ({ signal }) => api.get<MessageTemplateList>('/api/message-templates/offered', { message_type: kind, intake_id: intakeId ?? undefined }, signal),
    enabled: kind !== 'note',
    meta: { silent: true },
  });
}

export const draftWithAi = (body: AiDraftBody) => api.post<AiDraftResponse>('/api/ai/draft', body);

/** Settings → SMS: whether the SMS dialogs warn past one segment (shared settings cache). */
export function useSmsLimitWarnings(): boolean {
  const settings = useQuery({
    queryKey: queryKeys.settings,
    queryFn: ({ signal }) => api.get<Schemas['Settings']>('/api/settings', undefined, signal),
    meta: { silent: true },
  });
  return settings.data?.sms.show_character_limit_warnings ?? false;
}

/** Staff opened a family's reply: it is read from now on. */
export function useMarkReplyRead() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.post<Communication>(`/api/communications/${id}/read`, {}),
    meta: { errorMessage: 'Failed to mark the reply read' },
    onSettled: () => invalidate([queryKeys.communications]),
  });
}

/** The reply that reads as the family's yes to the client's sent proposal, if any. */
export function usePendingAcceptance(intakeId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.pendingAcceptance(intakeId ?? ''),
    queryFn: ({ signal }) => api.get<PendingAcceptanceAnswer>(`/api/intakes/${intakeId ?? ''}/pending-acceptance`, undefined, signal),
    enabled: Boolean(intakeId),
    meta: { silent: true },
  });
}

/** Staff's one click: the proposal is approved with the reply as its evidence. */
export function useApproveFromReply() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (communicationId: string) => api.post<Schemas['CarePlan']>(`/api/communications/${communicationId}/approve-proposal`, {}),
    meta: { errorMessage: 'Failed to approve the proposal' },
    onSettled: () => invalidate([queryKeys.communications, queryKeys.carePlans, queryKeys.clients, queryKeys.dashboard]),
  });
}
