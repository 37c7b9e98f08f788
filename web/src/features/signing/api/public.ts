import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { api } from '@/lib/api-client';
import type { ApprovalInput, ContractForSigning, LinkOutcome, ProposalLetter, PublicDone, QuestionInput, SignatureInput } from './types';

/** The family's pages: each answers for one link token, with no staff session. */
export function proposalPath(token: string): string {
  return `/api/public/approve/${encodeURIComponent(token)}`;
}

export function contractPath(token: string): string {
  return `/api/public/sign/${encodeURIComponent(token)}`;
}

/** The proposal the family's approval page shows (also asked as the page starts). */
export function proposalLetterQueryOptions(token: string) {
  return queryOptions({
    queryKey: queryKeys.proposalLetter(token),
    queryFn: ({ signal }) => api.get<ProposalLetter>(proposalPath(token), undefined, signal),
    retry: false,
    staleTime: Infinity,
  });
}

export function useProposalLetter(token: string) {
  return useQuery(proposalLetterQueryOptions(token));
}

export function useApproveProposal(token: string) {
  return useMutation({
    mutationFn: (input: ApprovalInput) => api.post<PublicDone>(proposalPath(token), input),
  });
}

export function useAskQuestion(token: string) {
  return useMutation({
    mutationFn: (input: QuestionInput) => api.post<PublicDone>(`${proposalPath(token)}/questions`, input),
  });
}

/** The agreement the family's signing page shows (also asked as the page starts). */
export function contractForSigningQueryOptions(token: string) {
  return queryOptions({
    queryKey: queryKeys.contractForSigning(token),
    queryFn: ({ signal }) => api.get<ContractForSigning>(contractPath(token), undefined, signal),
    retry: false,
    staleTime: Infinity,
  });
}

export function useContractForSigning(token: string) {
  return useQuery(contractForSigningQueryOptions(token));
}

export function useSignContract(token: string) {
  return useMutation({
    mutationFn: (input: SignatureInput) => api.post<PublicDone>(contractPath(token), input),
  });
}

/** A link the family already used: what it did and when (asked only after the page's
 * own answer said the link cannot be used). */
export function useLinkOutcome(kind: 'approve' | 'sign', token: string, enabled: boolean) {
  const path = kind === 'approve' ? proposalPath(token) : contractPath(token);
  return useQuery({
    queryKey: queryKeys.linkOutcome(kind, token),
    queryFn: ({ signal }) => api.get<LinkOutcome>(`${path}/outcome`, undefined, signal),
    enabled,
    retry: false,
    staleTime: Infinity,
  });
}

export function signedPdfPath(token: string): string {
  return `${contractPath(token)}/signed.pdf`;
}
