import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type Settings = Schemas['Settings'];
export type SettingsTabName = 'general' | 'email' | 'sms' | 'notifications' | 'workflow';
export type SettingsValues = {
  general: Schemas['GeneralSettings'];
  email: Schemas['EmailSettings'];
  sms: Schemas['SmsSettings'];
  notifications: Schemas['NotificationSettings'];
  workflow: Schemas['WorkflowSettings'];
};

export const settingsQueryOptions = queryOptions({
  queryKey: queryKeys.settings,
  queryFn: ({ signal }) => api.get<Settings>('/api/settings', undefined, signal),
});

export function useSettings() {
  return useQuery(settingsQueryOptions);
}

/** Saves one tab with the version it was read at; the answer is every tab as stored now. */
export function useSaveSettingsTab<T extends SettingsTabName>(tab: T) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ version, values }: { version: number; values: SettingsValues[T] }) =>
      api.put<Settings>('/api/settings', { version, tab, values }),
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryOptions.queryKey, settings),
  });
}

/** Uploads (or replaces) the agency's logo; the answer is every setting as stored now. */
export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => api.upload<Settings>('/api/settings/logo', file),
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryOptions.queryKey, settings),
  });
}

export function useRemoveLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<Settings>('/api/settings/logo'),
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryOptions.queryKey, settings),
  });
}
