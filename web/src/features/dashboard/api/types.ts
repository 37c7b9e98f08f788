import type { IntakeSummary } from '@/api/types';

/** `GET /api/dashboard`. */
export interface DashboardResponse {
  counts: {
    new_intakes: number;
    pending_assessments: number;
    active_care_plans: number;
    awaiting_signatures: number;
  };
  follow_ups_due_today: IntakeSummary[];
  recent_activity: IntakeSummary[];
}
