import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type MessageTemplate = Schemas['MessageTemplate'];
export type MessageTemplateInput = Schemas['MessageTemplateInput'];

export const messageTemplatesQueryOptions = queryOptions({
  queryKey: ['message-templates'],
  queryFn: ({ signal }) => api.get<{ items: MessageTemplate[] }>('/api/message-templates', undefined, signal),
});

export function useMessageTemplates() {
  return useQuery(messageTemplatesQueryOptions);
}

export function useSaveMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ existing, template }: { existing?: MessageTemplate; template: MessageTemplateInput }) =>
      existing
        ? api.put<MessageTemplate>(`/api/message-templates/${existing.id}`, { version: existing.version, template })
        : api.post<MessageTemplate>('/api/message-templates', template),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageTemplatesQueryOptions.queryKey }),
  });
}

export function useDeleteMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/message-templates/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageTemplatesQueryOptions.queryKey }),
  });
}
