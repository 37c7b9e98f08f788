import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type Queue = Schemas['Queue'];
export type QueueItem = Schemas['QueueItem'];
export type QueueKind = Schemas['QueueKind'];
export type Task = Schemas['Task'];
export type TaskBody = Schemas['TaskInput'];
export type SnoozeBody = Schemas['SnoozeInput'];
export type DoneBody = Schemas['QueueDoneInput'];
export type ClientProfile = Schemas['ClientProfile'];

/** A member of staff's queue for today (the signed-in user's when `userId` is empty): its
 * first page, or the `limit` most late rows the server offered as `more_limit`. */
export function queueQueryOptions(userId?: string, limit: number | null = null) {
  return queryOptions({
    queryKey: queryKeys.queue(userId ?? '', limit),
    queryFn: ({ signal }) => api.get<Queue>('/api/queue', { user_id: userId || undefined, limit: limit ?? undefined }, signal),
    meta: { errorPrefix: 'Failed to load the queue' },
    // "Show more" keeps the rows on screen while the longer queue loads (not another
    // coordinator's rows while theirs load).
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === (userId ?? '') ? previous : undefined),
  });
}

export const useQueue = (userId?: string, limit: number | null = null) => useQuery(queueQueryOptions(userId, limit));

export function clientTasksQueryOptions(intakeId: string) {
  return queryOptions({
    queryKey: queryKeys.clientTasks(intakeId),
    queryFn: ({ signal }) => api.get<{ items: Task[] }>(`/api/clients/${intakeId}/tasks`, undefined, signal),
    meta: { silent: true },
  });
}

export const useClientTasks = (intakeId: string) => useQuery(clientTasksQueryOptions(intakeId));

/** A queue action changes the queue, the client's timeline and its tasks. */
function useQueueMutation<TBody, TAnswer>(run: (body: TBody) => Promise<TAnswer>, errorMessage: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: run,
    meta: { errorMessage },
    onSettled: () => invalidate([queryKeys.queueRoot, queryKeys.tasks, queryKeys.communications, queryKeys.clients, queryKeys.anyClient]),
  });
}

export const useSnooze = () => useQueueMutation((body: SnoozeBody) => api.post<null>('/api/queue/snooze', body), 'Failed to snooze');
export const useMarkDone = () => useQueueMutation((body: DoneBody) => api.post<null>('/api/queue/done', body), 'Failed to mark done');
export const useAddTask = () =>
  useQueueMutation(({ intakeId, body }: { intakeId: string; body: TaskBody }) => api.post<Task>(`/api/clients/${intakeId}/tasks`, body), 'Failed to add the task');
export const useSetOwner = () =>
  useQueueMutation(({ intakeId, ownerId }: { intakeId: string; ownerId: string | null }) => api.put<ClientProfile>(`/api/clients/${intakeId}/owner`, { owner_id: ownerId }), 'Failed to change the coordinator');
export const useReadReplies = () =>
  useQueueMutation((intakeId: string) => api.post<{ read: number }>(`/api/clients/${intakeId}/replies/read`), 'Failed to mark replies read');
