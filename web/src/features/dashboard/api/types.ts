import type { IntakeBrief, Schemas } from '@/api/types';

export type DashboardResponse = Omit<Schemas['Dashboard'], 'follow_ups_due_today' | 'recent_activity' | 'stage_alerts'> & {
  follow_ups_due_today: IntakeBrief[];
  recent_activity: IntakeBrief[];
  stage_alerts: IntakeBrief[];
};
