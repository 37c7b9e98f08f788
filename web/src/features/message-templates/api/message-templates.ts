import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type MessageTemplate = Schemas['MessageTemplate'];
export type MessageTemplateInput = Schemas['MessageTemplateInput'];

export const messageTemplatesQueryOptions = queryOptions({
  queryKey: queryKeys.messageTemplates,
  queryFn: ({ signal }) => api.get<{ items: MessageTemplate[] }>('/api/message-templates', undefined, signal),
});

export function useMessageTemplates() {
  return useQuery(messageTemplatesQueryOptions);
}

export function useSaveMessageTemplate() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ existing, template }: { existing?: MessageTemplate; template: MessageTemplateInput }) =>
      existing
        ? api.put<MessageTemplate>(`/api/message-templates/${existing.id}`, { version: existing.version, template })
        : api.post<MessageTemplate>('/api/message-templates', template),
    onSuccess: () => invalidate([queryKeys.messageTemplates]),
  });
}

export function useDeleteMessageTemplate() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/message-templates/${id}`),
    onSuccess: () => invalidate([queryKeys.messageTemplates]),
  });
}
