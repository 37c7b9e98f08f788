import { useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import { ApiError, api } from '@/lib/api-client';
import type { Contract, ContractSigningStatus, PaperSignatureInput, PdfVerification } from './types';

export function useSigningStatus(contractId: string) {
  return useQuery({
    queryKey: queryKeys.signingStatus(contractId),
    queryFn: ({ signal }) => api.get<ContractSigningStatus>(`/api/contracts/${contractId}/signing`, undefined, signal),
    meta: { errorMessage: 'Failed to load the signing status' },
    enabled: Boolean(contractId),
  });
}

export function useResendLink(contractId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.post<ContractSigningStatus>(`/api/contracts/${contractId}/signing/resend`),
    meta: { errorMessage: 'Failed to send a new link' },
    onSettled: () => invalidate([queryKeys.contracts]),
  });
}

export function usePaperSignature(contractId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: PaperSignatureInput) => api.post<Contract>(`/api/contracts/${contractId}/paper-signature`, input),
    onSettled: () => invalidate([queryKeys.contracts]),
  });
}

/** Sends the file's bytes as they are; the server compares their SHA-256. */
export async function verifySignedPdf(file: Blob): Promise<PdfVerification> {
  let response: Response;
  try {
    response = await fetch('/api/contracts/verify-pdf', {
      method: 'POST',
      headers: { 'Content-Type': 'application/pdf', Accept: 'application/json' },
      credentials: 'same-origin',
      body: file,
    });
  } catch {
    throw new ApiError(0, 'network', 'Cannot reach the Carepath server. Check your connection and try again.');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'error' in body ? (body as { error: { code: string; message: string } }).error : { code: 'http_error', message: 'The file could not be checked.' };
    throw new ApiError(response.status, message.code, message.message);
  }
  return body as PdfVerification;
}

export function useVerifyPdf() {
  return useMutation({ mutationFn: verifySignedPdf });
}
