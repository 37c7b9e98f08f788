/**
 * Entity shapes the server returns and several features share. These follow docs/api.md
 * and the server's Rust types; they give way to the generated `schema.d.ts` once the
 * OpenAPI document is published.
 */

export type Stage = 'intake' | 'assessment' | 'care_plan' | 'contract';
export type IntakeStatus = 'intake_created' | 'pending' | 'assessment_completed' | 'declined' | 'not_interested' | 'not_proceeding' | 'rejected' | 'cancelled';
export type AssessmentStatus = 'draft' | 'completed';
export type CarePlanStatus = 'draft' | 'sent' | 'approved' | 'declined' | 'not_interested' | 'not_proceeding' | 'rejected' | 'cancelled';
export type ContractStatus = 'draft' | 'sent' | 'signed' | 'declined' | 'cancelled';
export type ClientUrgency = 'overdue' | 'due_soon' | 'on_track';

/** The derived status line of an intake, computed by the server. */
export interface PipelineStatus {
  label: string;
  description: string;
  next_action: string;
  next_route: string;
  overdue: boolean;
  days_in_stage: number;
}

export interface PipelinePosition {
  stage: Stage;
  stage_entered_at: string;
  archived: boolean;
  latest_assessment_id: string | null;
  latest_assessment_status: AssessmentStatus | null;
  latest_care_plan_id: string | null;
  latest_care_plan_status: CarePlanStatus | null;
  latest_contract_id: string | null;
  latest_contract_status: ContractStatus | null;
}

export interface IntakeSummary {
  id: string;
  version: number;
  status: IntakeStatus;
  client_full_name: string;
  date_of_birth: string | null;
  age: number | null;
  caller_name: string;
  caller_phone: string;
  caller_email: string;
  services_required: string[];
  created_at: string;
  last_contact_date: string | null;
  next_follow_up_date: string | null;
  follow_up_notes: string | null;
  is_draft: boolean;
  position: PipelinePosition;
  pipeline: PipelineStatus;
}

/** One step of a client's journey (intake, assessment, care plan, contract). */
export interface JourneyStep {
  stage: Stage;
  label: string;
  complete: boolean;
  /** When the step's record was created. */
  date: string | null;
  /** The step's form: the record when it exists, otherwise a new one from the previous step. */
  route: string;
  /** False while the previous step is missing (care plan before an assessment exists). */
  enabled: boolean;
}

export interface CurrentUser {
  id: string;
  email: string;
  full_name: string;
  is_admin: boolean;
}

export interface Profile {
  id: string;
  full_name: string;
  email: string;
}
