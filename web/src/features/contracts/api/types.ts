import type { Schemas } from '@/api/types';
import type { FormBinder } from '@/components/form/form-binder';

export type Contract = Schemas['Contract'];
export type ContractList = Schemas['ContractList'];
export type ContractStats = Schemas['ContractStats'];
export type ContractStatus = Schemas['ContractStatus'];
/** `care_plan_version`: the care plan version on screen; the server refuses a stale one (409). */
export type ContractBody = Schemas['ContractBody'];
export type ContractUpdate = Schemas['ContractUpdate'];
export type ContractPreview = Schemas['ContractPreview'];
export type EmailDraft = Schemas['EmailDraft'];
/** `version`: the contract version on screen; the server refuses a stale one (409) with the current contract. */
export type SendContractBody = Schemas['SendContractBody'];
export type ContractSent = Schemas['ContractSent'];
export type SendableCarePlan = Schemas['CarePlan'];

/** The contract screen's form: the care plan it is written from and its text. */
export interface ContractForm {
  care_plan_id: string;
  content: string;
}
export type ContractBinder = FormBinder<ContractForm>;

/** The list's status filter: the spec's All Contracts, Draft, Pending Signature, Signed. */
export type ContractFilter = Extract<ContractStatus, 'draft' | 'sent' | 'signed'>;
