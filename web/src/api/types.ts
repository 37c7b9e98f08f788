/**
 * Entity shapes several features share. They are aliases of the types generated from the
 * server's OpenAPI document (`schema.d.ts`, refreshed with `npm run gen:api`); where the
 * document leaves a derived value untyped (the pipeline status and the journey steps), the
 * alias narrows it to what the server sends.
 */
import type { components } from './schema';

export type Schemas = components['schemas'];

export type Stage = Schemas['Stage'];
export type IntakeStatus = Schemas['IntakeStatus'];
export type AssessmentStatus = Schemas['AssessmentStatus'];
export type CarePlanStatus = Schemas['CarePlanStatus'];
export type ContractStatus = Schemas['ContractStatus'];
export type ClientUrgency = 'overdue' | 'due_soon' | 'on_track';
export type PipelinePosition = Schemas['PipelinePosition'];

/** The status line every list and the dashboard show (untyped in the OpenAPI document). */
export interface PipelineStatus {
  label: string;
  description: string;
  next_action: string;
  next_route: string;
  overdue: boolean;
  days_in_stage: number;
}

/** One step of the journey bar (untyped in the OpenAPI document). */
export interface JourneyStep {
  stage: Stage;
  label: string;
  complete: boolean;
  date: string | null;
  route: string;
  enabled: boolean;
}

type WithPipeline<T> = Omit<T, 'pipeline'> & { pipeline: PipelineStatus };

export type IntakeSummary = WithPipeline<Schemas['IntakeSummary']>;
export type CurrentUser = Schemas['SessionUser'];
export type Profile = Schemas['Profile'];
