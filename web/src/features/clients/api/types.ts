import type { StageFilterValue } from '@/api/options.gen';
import type { ClientUrgency, Schemas } from '@/api/types';

export type StageFilter = StageFilterValue;

/** One row of `GET /api/clients`: the intake summary with its journey. */
export type ClientRow = Schemas['ClientRow'];
export type ClientCounts = Schemas['ClientCounts'];
export type ClientPage = Schemas['ClientPage'];

export interface ClientsQuery {
  /** `me`, `unassigned` or a user's id. */
  owner?: string | undefined;
  stage?: StageFilter | undefined;
  urgency?: ClientUrgency | undefined;
  q?: string | undefined;
  cursor?: string | null | undefined;
}

export type ProfileAssessment = Schemas['Assessment'];
export type ProfileCarePlan = Schemas['CarePlan'];
export type ProfileContract = Schemas['Contract'];

export type ClientProfile = Schemas['ClientProfile'];
