import type { Schemas } from '@/api/types';

export type AssessmentVisit = Schemas['AssessmentVisit'];
export type VisitAnswer = Schemas['VisitAnswer'];
export type VisitInput = Schemas['VisitInput'];
export type VisitPage = Schemas['Page_AssessmentVisit'];
export type VisitList = Schemas['Items_AssessmentVisit'];
/** `GET /api/intakes/{id}`: read here for the address a new visit starts from. */
export type IntakeRecord = Schemas['Intake'];
export type VisitStatus = Schemas['VisitStatus'];
export type ProfileList = Schemas['Items_Profile'];

/** Which visits a list shows: a range of the agency's days, one assessor. */
export interface VisitRange {
  from: string;
  to: string;
  assessor_id?: string;
}
export type CalendarFeedStatus = Schemas['CalendarFeedStatus'];
export type CalendarFeedAddress = Schemas['CalendarFeedAddress'];
