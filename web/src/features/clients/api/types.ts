import type { AssessmentStatus, CarePlanStatus, ClientUrgency, ContractStatus, IntakeSummary, JourneyStep } from '@/api/types';

export type StageFilter = 'intake' | 'assessment' | 'care_plan' | 'contract' | 'archived';

/** One row of `GET /api/clients`: the intake summary with its journey. */
export interface ClientRow extends IntakeSummary {
  urgency: ClientUrgency;
  journey: JourneyStep[];
  /** The furthest existing stage's form. */
  view_route: string;
}

export interface ClientCounts {
  total: number;
  intake: number;
  assessment: number;
  care_plan: number;
  contract: number;
  overdue: number;
  archived: number;
}

export interface ClientPage {
  items: ClientRow[];
  next_cursor: string | null;
  counts: ClientCounts;
}

export interface ClientsQuery {
  stage?: StageFilter | undefined;
  urgency?: ClientUrgency | undefined;
  q?: string | undefined;
  cursor?: string | null | undefined;
}

export interface ProfileAssessment {
  id: string;
  status: AssessmentStatus;
  assessment_date: string | null;
  recommended_services: string[];
  recommended_hours: number | null;
  coordinator_name: string;
  created_at: string;
}

export interface ProfileCarePlan {
  id: string;
  status: CarePlanStatus;
  services: string[];
  weekly_cost: number;
  monthly_cost: number;
  hourly_rate: number;
  created_at: string;
}

export interface ProfileContract {
  id: string;
  status: ContractStatus;
  created_at: string;
  sent_at: string | null;
  signed_at: string | null;
}

/** `GET /api/clients/{id}`. */
export interface ClientProfile {
  intake: IntakeSummary;
  urgency: ClientUrgency;
  journey: JourneyStep[];
  view_route: string;
  assessment: ProfileAssessment | null;
  care_plan: ProfileCarePlan | null;
  contract: ProfileContract | null;
  contacts_count: number;
}
