import type { Schemas } from '@/api/types';

export type ProposalLetter = Schemas['ProposalLetter'];
export type ContractForSigning = Schemas['ContractForSigning'];
export type PublicDone = Schemas['PublicDone'];
export type LinkOutcome = Schemas['LinkOutcome'];
export type ApprovalInput = Schemas['ApprovalInput'];
export type QuestionInput = Schemas['QuestionInput'];
export type SignatureInput = Schemas['SignatureInput'];
export type ContractSigningStatus = Schemas['ContractSigningStatus'];
export type SigningLinkInfo = Schemas['SigningLinkInfo'];
export type LinkState = Schemas['LinkState'];
export type PaperSignatureInput = Schemas['PaperSignatureInput'];
export type PdfVerification = Schemas['PdfVerification'];
export type Contract = Schemas['Contract'];

/** A drawn signature: strokes of `[x, y]` points, each 0..1 of the signing pad. */
export type Strokes = number[][][];

export const LINK_STATE_LABELS: Record<LinkState, string> = {
  sent: 'Sent',
  opened: 'Opened',
  used: 'Signed',
  expired: 'Expired',
  revoked: 'Replaced',
  outdated: 'Contract changed',
};
