import type { ClientUrgency, IntakeSummary, JourneyStep, PipelineStatus, Schemas } from '@/api/types';

export type StageFilter = 'intake' | 'assessment' | 'care_plan' | 'contract' | 'archived';

/** One row of `GET /api/clients`: the intake summary with its journey. */
type Derived = { pipeline: PipelineStatus; urgency: ClientUrgency; journey: JourneyStep[] };

export type ClientRow = Omit<Schemas['ClientRow'], keyof Derived> & Derived;
export type ClientCounts = Schemas['ClientCounts'];
export type ClientPage = Omit<Schemas['ClientPage'], 'items'> & { items: ClientRow[] };

export interface ClientsQuery {
  stage?: StageFilter | undefined;
  urgency?: ClientUrgency | undefined;
  q?: string | undefined;
  cursor?: string | null | undefined;
}

export type ProfileAssessment = Schemas['Assessment'];
export type ProfileCarePlan = Schemas['CarePlan'];
export type ProfileContract = Schemas['Contract'];

export type ClientProfile = Omit<Schemas['ClientProfile'], 'intake' | 'urgency' | 'journey'> & {
  intake: IntakeSummary;
  urgency: ClientUrgency;
  journey: JourneyStep[];
};
