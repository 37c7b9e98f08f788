/**
 * Entity shapes several features share: aliases of the types generated from the server's
 * OpenAPI document (`schema.d.ts`, refreshed with `npm run gen:api`).
 */
import type { components } from './schema';

export type Schemas = components['schemas'];

export type Stage = Schemas['Stage'];
export type IntakeStatus = Schemas['IntakeStatus'];
export type AssessmentStatus = Schemas['AssessmentStatus'];
export type CarePlanStatus = Schemas['CarePlanStatus'];
export type ContractStatus = Schemas['ContractStatus'];
export type ClientUrgency = Schemas['ClientUrgency'];
export type PipelinePosition = Schemas['PipelinePosition'];

/** The status line every list and the dashboard show, derived by the server. */
export type PipelineStatus = Schemas['PipelineStatus'];

/** One step of the journey bar. */
export type JourneyStep = Schemas['JourneyStep'];

export type IntakeSummary = Schemas['IntakeSummary'];
/** An intake as the clients list and the dashboard show it. */
export type IntakeBrief = Schemas['IntakeBrief'];
export type CurrentUser = Schemas['SessionUser'];
export type Profile = Schemas['Profile'];
