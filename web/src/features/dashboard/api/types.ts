import type { IntakeSummary, Schemas } from '@/api/types';

export type DashboardResponse = Omit<Schemas['Dashboard'], 'follow_ups_due_today' | 'recent_activity' | 'stage_alerts'> & {
  follow_ups_due_today: IntakeSummary[];
  recent_activity: IntakeSummary[];
  stage_alerts: IntakeSummary[];
};
