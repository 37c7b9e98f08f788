import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { CreateIntakeBody, Intake, UpdateIntakeBody } from './types';

export interface SaveIntakeVariables {
  id: string | null;
  version: number | null;
  body: CreateIntakeBody;
}

function useSave(kind: 'submit' | 'draft') {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, version, body }: SaveIntakeVariables) => {
      const suffix = kind === 'draft' ? '/draft' : '';
      if (id && version !== null) {
        const update: UpdateIntakeBody = { version, form: body.form };
        return api.put<Intake>(`/api/intakes/${id}${suffix}`, update);
      }
      return api.post<Intake>(`/api/intakes${suffix}`, body);
    },
    meta: { errorMessage: kind === 'draft' ? 'Failed to save draft' : 'Failed to save intake form' },
    onSuccess: (intake) => {
      queryClient.setQueryData(queryKeys.intake(intake.id), intake);
      void invalidate([queryKeys.dashboard, queryKeys.clients, queryKeys.intakes, queryKeys.client(intake.id)]);
    },
  });
}

export const useSubmitIntake = () => useSave('submit');
export const useSaveIntakeDraft = () => useSave('draft');
