import type { IntakeSummary } from '@/api/types';

export type IntakeUrgency = 'new' | 'attention' | 'urgent';

/** `GET /api/intakes`. */
export interface IntakePage {
  items: IntakeSummary[];
  next_cursor: string | null;
  summary: { new: number; attention: number; urgent: number };
}
