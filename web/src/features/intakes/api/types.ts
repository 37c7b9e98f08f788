import type { UrgencyValue } from '@/api/options.gen';
import type { IntakeSummary, Schemas } from '@/api/types';

/** The intakes list's urgency filter, generated from the API's enum. */
export type IntakeUrgency = UrgencyValue;

export type IntakePage = Omit<Schemas['IntakePage'], 'items'> & { items: IntakeSummary[] };
