/**
 * Every TanStack Query key of the app, and the one way to make them stale. Each entity's
 * keys share a first element (its root), so a change pushed by the server
 * (`lib/live-events.ts`) or a mutation makes a whole entity stale by naming its root.
 * ESLint refuses a literal key or an `invalidateQueries` call anywhere else.
 */
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

export const queryKeys = {
  me: ['auth', 'me'] as const,
  accountSessions: ['account', 'sessions'] as const,
  accountFactors: ['account', 'second-factor'] as const,
  accountPasskeys: ['account', 'passkeys'] as const,
  users: ['users'] as const,
  settings: ['settings'] as const,
  admin: ['admin'] as const,
  adminUsers: ['admin', 'users'] as const,
  trash: ['admin', 'trash'] as const,
  dashboard: ['dashboard'] as const,
  followUps: (owner: string, firstCursor: string | null | undefined) => ['dashboard', 'follow-ups', owner, firstCursor] as const,
  analytics: (from: string, to: string) => ['analytics', from, to] as const,
  searches: ['search'] as const,
  search: (term: string) => ['search', term] as const,

  clients: ['clients'] as const,
  clientList: (query: object) => ['clients', query] as const,
  /** Every client's profile and journey; one of them, keyed by its intake. */
  anyClient: ['client'] as const,
  client: (intakeId: string | null) => ['client', intakeId] as const,
  /** Under the client's own key: a signing or any change of the client refreshes it. */
  startOfCare: (intakeId: string) => ['client', intakeId, 'start-of-care'] as const,

  intakes: ['intakes'] as const,
  intakeList: (query: object) => ['intakes', query] as const,
  awaitingAssessment: ['intakes', 'awaiting-assessment'] as const,
  anyIntake: ['intake'] as const,
  intake: (id: string) => ['intake', id] as const,

  assessments: ['assessments'] as const,
  assessmentList: (query: object) => ['assessments', query] as const,
  anyAssessment: ['assessment'] as const,
  assessment: (id: string | null) => ['assessment', id] as const,
  assessmentPrefill: (intakeId: string | null) => ['assessment-prefill', intakeId] as const,

  carePlans: ['care-plans'] as const,
  carePlanList: (query: object) => ['care-plans', 'list', query] as const,
  sendableCarePlans: ['care-plans', 'sendable'] as const,
  carePlan: (id: string | null) => ['care-plans', 'detail', id] as const,
  carePlanPrefill: (assessmentId: string | null) => ['care-plans', 'prefill', assessmentId] as const,
  carePlanQuote: (body: object) => ['care-plan-quote', body] as const,
  pricingTemplates: ['pricing-templates'] as const,
  holidayPolicy: ['holiday-policy'] as const,
  messageTemplates: ['message-templates'] as const,
  /** Under the message templates' root, so saving a template refreshes what dialogs offer. */
  offeredTemplates: (kind: string, intakeId: string | null) => ['message-templates', 'offered', kind, intakeId] as const,

  contracts: ['contracts'] as const,
  contractList: (query: object) => ['contracts', 'list', query] as const,
  contract: (id: string | null) => ['contracts', 'detail', id] as const,
  contractPreview: (carePlanId: string | null) => ['contracts', 'preview', carePlanId] as const,
  contractEmailDraft: (id: string) => ['contracts', 'email-draft', id] as const,
  /** Under `contracts`, so every contract change pushed live refreshes it too. */
  signingStatus: (contractId: string) => ['contracts', contractId, 'signing'] as const,
  contractTemplate: ['contract-template'] as const,
  contractTemplateVersions: ['contract-template', 'versions'] as const,

  communications: ['communications'] as const,
  timeline: (parents: object, visibility: string) => ['communications', parents, visibility] as const,
  hub: (filters: object) => ['communications', 'hub', filters] as const,
  outbox: ['communications', 'outbox'] as const,
  outboxMessage: (fileName: string | null) => ['communications', 'outbox', fileName] as const,
  /** Under the communications' root: a reply kept, read or approved refreshes it. */
  pendingAcceptance: (intakeId: string) => ['communications', 'pending-acceptance', intakeId] as const,
  unmatchedReplies: (cursor: string | null) => ['communications', 'unmatched', cursor] as const,

  anyContacts: ['contacts'] as const,
  contacts: (intakeId: string) => ['contacts', intakeId] as const,

  /** Each member of staff's queue for today; '' is the signed-in user's, null the first page. */
  queueRoot: ['queue'] as const,
  queue: (userId: string, limit: number | null) => ['queue', userId, limit] as const,
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
  replyMailbox: ['outbound-accounts', 'reply-mailbox'] as const,

  /** The family's pages, one link token each (no staff session). */
  proposalLetter: (token: string) => ['public', 'approve', token] as const,
  contractForSigning: (token: string) => ['public', 'sign', token] as const,
  linkOutcome: (kind: 'approve' | 'sign', token: string) => ['public', kind, token, 'outcome'] as const,
};

/** Which roots a change of each entity (as `GET /api/events` names it, or a mutation of
 * this app) makes stale. */
export const STALE_ROOTS = {
  communication: [queryKeys.communications, queryKeys.clients, queryKeys.anyClient, queryKeys.dashboard, queryKeys.queueRoot],
  intake: [queryKeys.intakes, queryKeys.anyIntake, queryKeys.clients, queryKeys.anyClient, queryKeys.dashboard, queryKeys.searches, queryKeys.queueRoot],
  // A saved assessment also changes what its care plans show (Update Mode).
  assessment: [queryKeys.assessments, queryKeys.anyAssessment, queryKeys.clients, queryKeys.anyClient, queryKeys.dashboard, queryKeys.intakes, queryKeys.carePlans, queryKeys.queueRoot],
  // Pipeline moves also write a system event into the client's timeline.
  care_plan: [queryKeys.carePlans, queryKeys.clients, queryKeys.anyClient, queryKeys.dashboard, queryKeys.assessments, queryKeys.communications, queryKeys.queueRoot],
  contract: [queryKeys.contracts, queryKeys.carePlans, queryKeys.clients, queryKeys.anyClient, queryKeys.dashboard, queryKeys.communications, queryKeys.queueRoot],
  contact: [queryKeys.anyContacts, queryKeys.anyClient],
  signing_link: [queryKeys.contracts],
  // A visit's move also changes the client's status and writes its timeline.
  assessment_visit: [queryKeys.visits, queryKeys.clients, queryKeys.anyClient, queryKeys.anyIntake, queryKeys.intakes, queryKeys.dashboard, queryKeys.communications, queryKeys.queueRoot],
  // Archiving or reopening a client moves every record of its pipeline.
  lead: [queryKeys.clients, queryKeys.anyClient, queryKeys.dashboard, queryKeys.intakes, queryKeys.carePlans, queryKeys.contracts, queryKeys.communications],
  // A task also writes the client's timeline.
  task: [queryKeys.queueRoot, queryKeys.tasks, queryKeys.communications],
  // A ticked start-of-care item writes the client's timeline too.
  start_of_care_item: [queryKeys.anyClient, queryKeys.communications],
} satisfies Record<string, readonly QueryKey[]>;

/** The roots of an entity the server names, or none for one this app does not show. */
export function staleRoots(entity: string): readonly QueryKey[] {
  return Object.hasOwn(STALE_ROOTS, entity) ? STALE_ROOTS[entity as keyof typeof STALE_ROOTS] : [];
}

/**
 * Marks every query under each root stale; those on screen are fetched again (TanStack's
 * default, `refetchType: 'active'`). `'everything'` is for a change the app cannot name
 * (a missed live update, a restored record). The app's only call of `invalidateQueries`.
 */
export async function invalidate(queryClient: QueryClient, roots: readonly QueryKey[] | 'everything'): Promise<void> {
  if (roots === 'everything') return queryClient.invalidateQueries();
  await Promise.all(roots.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** `invalidate` bound to the app's query client, for mutations and components. */
export function useInvalidate(): (roots: readonly QueryKey[] | 'everything') => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback((roots) => invalidate(queryClient, roots), [queryClient]);
}
