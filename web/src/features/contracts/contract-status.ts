import type { ContractStatusValue } from '@/api/options.gen';

/**
 * The one name of each contract status, as the spec's list filter says it (All
 * Contracts, Draft, Pending Signature, Signed): the filter, the list's badge and the
 * contract screen's status card all read it, so "sent" is never called two things.
 * Keyed by the generated status list, so a new status fails the type check here.
 */
export const CONTRACT_STATUS_LABELS: Record<ContractStatusValue, string> = {
  draft: 'Draft',
  sent: 'Pending Signature',
  signed: 'Signed',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

export function contractStatusLabel(status: ContractStatusValue): string {
  return CONTRACT_STATUS_LABELS[status];
}
