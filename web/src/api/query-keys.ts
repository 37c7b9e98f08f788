/**
 * Every TanStack Query key of the app, in one place. Each entity's keys share a first
 * element (its root), so a change pushed by the server (`lib/live-events.ts`) or a
 * mutation makes a whole entity stale with one `invalidateQueries({ queryKey: root })`.
 */

export const queryKeys = {
  me: ['auth', 'me'] as const,
  accountSessions: ['account', 'sessions'] as const,
  accountFactors: ['account', 'second-factor'] as const,
  users: ['users'] as const,
  dashboard: ['dashboard'] as const,
  search: (term: string) => ['search', term] as const,

  clients: ['clients'] as const,
  clientList: (query: object) => ['clients', query] as const,
  /** A client's profile and journey, keyed by its intake. */
  client: (intakeId: string | null) => ['client', intakeId] as const,

  intakes: ['intakes'] as const,
  intakeList: (query: object) => ['intakes', query] as const,
  awaitingAssessment: ['intakes', 'awaiting-assessment'] as const,
  intake: (id: string) => ['intake', id] as const,

  assessments: ['assessments'] as const,
  assessmentList: (query: object) => ['assessments', query] as const,
  assessment: (id: string | null) => ['assessment', id] as const,
  assessmentPrefill: (intakeId: string | null) => ['assessment-prefill', intakeId] as const,

  carePlans: ['care-plans'] as const,
  carePlanList: (query: object) => ['care-plans', 'list', query] as const,
  sendableCarePlans: ['care-plans', 'sendable'] as const,
  carePlan: (id: string | null) => ['care-plans', 'detail', id] as const,
  carePlanPrefill: (assessmentId: string | null) => ['care-plans', 'prefill', assessmentId] as const,
  carePlanQuote: (body: object) => ['care-plan-quote', body] as const,
  pricingTemplates: ['pricing-templates'] as const,
  /** Under the message templates' root, so saving a template refreshes what dialogs offer. */
  offeredTemplates: (kind: string, intakeId: string | null) => ['message-templates', 'offered', kind, intakeId] as const,

  contracts: ['contracts'] as const,
  contractList: (query: object) => ['contracts', 'list', query] as const,
  contract: (id: string | null) => ['contracts', 'detail', id] as const,
  contractPreview: (carePlanId: string | null) => ['contracts', 'preview', carePlanId] as const,
  contractEmailDraft: (id: string) => ['contracts', 'email-draft', id] as const,

  communications: ['communications'] as const,
  timeline: (parents: object, visibility: string) => ['communications', parents, visibility] as const,

  contacts: (intakeId: string) => ['contacts', intakeId] as const,

  /** Each member of staff's queue for today; '' is the signed-in user's. */
  queueRoot: ['queue'] as const,
  queue: (userId: string) => ['queue', userId] as const,
  tasks: ['tasks'] as const,
  clientTasks: (intakeId: string) => ['tasks', intakeId] as const,

  visits: ['visits'] as const,
  visitList: (range: object) => ['visits', 'list', range] as const,
  intakeVisits: (intakeId: string) => ['visits', 'intake', intakeId] as const,
  calendarFeed: ['visits', 'calendar-feed'] as const,

  /** The first run and the setup checklist; the mail and SMS accounts of Settings. */
  setup: ['setup'] as const,
  checklist: ['setup', 'checklist'] as const,
  emailAccount: ['outbound-accounts', 'email'] as const,
  smsAccount: ['outbound-accounts', 'sms'] as const,
};

/** Which roots a change of each entity (as `GET /api/events` names it) makes stale. */
export const STALE_ROOTS: Record<string, readonly (readonly string[])[]> = {
  communication: [queryKeys.communications, queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.queueRoot],
  intake: [queryKeys.intakes, ['intake'], queryKeys.clients, ['client'], queryKeys.dashboard, ['search'], queryKeys.queueRoot],
  assessment: [queryKeys.assessments, ['assessment'], queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.intakes, queryKeys.queueRoot],
  // Pipeline moves also write a system event into the client's timeline.
  care_plan: [queryKeys.carePlans, queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.assessments, queryKeys.communications, queryKeys.queueRoot],
  contract: [queryKeys.contracts, queryKeys.carePlans, queryKeys.clients, ['client'], queryKeys.dashboard, queryKeys.communications, queryKeys.queueRoot],
  contact: [['contacts'], ['client']],
  signing_link: [queryKeys.contracts],
  // A visit's move also changes the client's status and writes its timeline.
  assessment_visit: [queryKeys.visits, queryKeys.clients, ['client'], ['intake'], queryKeys.intakes, queryKeys.dashboard, queryKeys.communications, queryKeys.queueRoot],
  // A task also writes the client's timeline.
  task: [queryKeys.queueRoot, queryKeys.tasks, queryKeys.communications],
};
