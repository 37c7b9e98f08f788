import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { CreateIntakeBody, Intake, UpdateIntakeBody } from './types';

export interface SaveIntakeVariables {
  id: string | null;
  version: number | null;
  body: CreateIntakeBody;
}

function useSave(kind: 'submit' | 'draft') {
  const queryClient = useQueryClient();
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
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
      void queryClient.invalidateQueries({ queryKey: queryKeys.clients });
      void queryClient.invalidateQueries({ queryKey: queryKeys.intakes });
      void queryClient.invalidateQueries({ queryKey: queryKeys.client(intake.id) });
    },
  });
}

export const useSubmitIntake = () => useSave('submit');
export const useSaveIntakeDraft = () => useSave('draft');
