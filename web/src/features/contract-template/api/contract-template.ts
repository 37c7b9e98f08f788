import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type ContractTemplate = Schemas['ContractTemplate'];
export type ContractSection = Schemas['ContractSection'];
export type ContractTemplateInput = Schemas['ContractTemplateInput'];

export const contractTemplateQueryOptions = queryOptions({
  queryKey: queryKeys.contractTemplate,
  queryFn: ({ signal }) => api.get<ContractTemplate>('/api/contract-template', undefined, signal),
});

export const contractTemplateVersionsQueryOptions = queryOptions({
  queryKey: queryKeys.contractTemplateVersions,
  queryFn: ({ signal }) => api.get<{ items: ContractTemplate[] }>('/api/contract-template/versions', undefined, signal),
});

export function useContractTemplate() {
  return useQuery(contractTemplateQueryOptions);
}

export function useContractTemplateVersions(enabled: boolean) {
  return useQuery({ ...contractTemplateVersionsQueryOptions, enabled });
}

function useTemplateMutation<TVariables>(mutationFn: (variables: TVariables) => Promise<ContractTemplate>) {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn, onSuccess: () => invalidate([queryKeys.contractTemplate]) });
}

/** Saves the current version in place. */
export function useSaveContractTemplate() {
  return useTemplateMutation(({ version, template }: { version: number; template: ContractTemplateInput }) => api.put<ContractTemplate>('/api/contract-template', { version, template }));
}

/** Saves the sections as a new version (the number goes up by 0.1). */
export function useCreateContractTemplateVersion() {
  return useTemplateMutation((template: ContractTemplateInput) => api.post<ContractTemplate>('/api/contract-template/versions', template));
}

/** Makes an older version current again. */
export function useLoadContractTemplateVersion() {
  return useTemplateMutation((id: string) => api.post<ContractTemplate>(`/api/contract-template/versions/${id}/use`));
}
