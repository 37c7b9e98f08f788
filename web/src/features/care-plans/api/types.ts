import type { FormBinder } from '@/components/form/form-binder';
import type { Schemas } from '@/api/types';

export type CarePlan = Schemas['CarePlan'];
export type CarePlanInput = Schemas['CarePlanInput'];
export type CarePlanPage = Schemas['Page'];
export type CarePlanPrefill = Schemas['CarePlanPrefill'];
export type CarePlanBody = Schemas['CarePlanBody'];
export type CarePlanUpdate = Schemas['CarePlanUpdate'];
export type CarePlanService = Schemas['CarePlanService'];
export type CarePlanStatus = Schemas['CarePlanStatus'];
export type WeeklySchedule = Schemas['WeeklySchedule'];
export type DaySchedule = Schemas['DaySchedule'];
export type MarketingEmail = Schemas['MarketingEmail'];
/** `version`: the care plan version on screen; the server refuses a stale one (409) with the current plan. */
export type SendProposalBody = Schemas['SendProposalBody'];
export type CarePlanSent = Schemas['CarePlanSent'];
export type PricingTemplate = Schemas['PricingTemplate'];

/** The care plan form: what staff fill in, every field present. */
export type CarePlanForm = Required<CarePlanInput> & { schedule: Required<{ [Day in keyof WeeklySchedule]-?: Required<DaySchedule> }> };
export type CarePlanBinder = FormBinder<CarePlanForm>;

/** `POST /api/care-plans/quote`: the schedule and rate to price, and what the server computed. */
export type CarePlanQuoteBody = Schemas['CarePlanQuoteInput'];
export type CarePlanQuote = Schemas['CarePlanQuote'];
