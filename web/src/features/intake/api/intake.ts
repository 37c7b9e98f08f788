import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { ClientJourney, CreateIntakeBody, Intake, UpdateIntakeBody } from './types';

export function intakeQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.intake(id),
    queryFn: ({ signal }) => api.get<Intake>(`/api/intakes/${id}`, undefined, signal),
    meta: { errorMessage: 'Failed to load intake' },
    staleTime: Infinity,
  });
}

export function useIntake(id: string | null) {
  return useQuery({ ...intakeQueryOptions(id ?? ''), enabled: Boolean(id) });
}

export function useClientJourney(id: string | null) {
  return useQuery({
    queryKey: queryKeys.client(id),
    queryFn: ({ signal }) => api.get<ClientJourney>(`/api/clients/${id ?? ''}`, undefined, signal),
    enabled: Boolean(id),
    meta: { silent: true },
  });
}

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
