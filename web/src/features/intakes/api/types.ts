import type { IntakeSummary, Schemas } from '@/api/types';

export type IntakeUrgency = 'new' | 'attention' | 'urgent';

export type IntakePage = Omit<Schemas['IntakePage'], 'items'> & { items: IntakeSummary[] };
