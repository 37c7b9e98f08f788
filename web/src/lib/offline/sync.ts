/**
 * Sends the device's assessment drafts once the network is back, oldest first, each with
 * the version it was based on. An unchanged record takes it; a record changed meanwhile
 * answers 409 and the draft stays, holding the server's version for the assessor to
 * choose from field by field. A lapsed session (401) or a lost network stops the round
 * with every draft kept: the next round (after signing in, or online again) sends them.
 * A completed assessment whose care plan was asked for offline has it generated right
 * after the server took the assessment, never before.
 */
import type { OpenDraft } from './drafts';

/** How one send ended, as the API client reports it. */
export type SendOutcome<Server> = { ok: true; saved: Server } | { ok: false; status: number; message: string; current?: Server };

export interface SyncPorts<Form, Server> {
  list: () => Promise<OpenDraft<Form, Server>[]>;
  send: (draft: OpenDraft<Form, Server>) => Promise<SendOutcome<Server>>;
  remove: (target: string) => Promise<void>;
  mark: (target: string, outcome: { server?: unknown; error?: string }) => Promise<void>;
  /** The saved record, for the offline copy and the open screens. */
  saved: (draft: OpenDraft<Form, Server>, record: Server) => Promise<void>;
  /** Generates the care plan of a record the server just took (asked for offline). */
  generateCarePlan: (record: Server) => Promise<{ ok: true } | { ok: false; message: string }>;
}

export interface SyncReport {
  sent: string[];
  conflicts: string[];
  refused: string[];
  /** Drafts whose care plan was generated once they were sent. */
  carePlans: string[];
  /** Drafts sent whose care plan could not be generated: the screen offers the button again. */
  carePlanFailures: { target: string; message: string }[];
  /** Why the round stopped early: no network or no session. */
  stopped: 'offline' | 'signed-out' | null;
}

export async function syncDrafts<Form, Server>(ports: SyncPorts<Form, Server>): Promise<SyncReport> {
  const report: SyncReport = { sent: [], conflicts: [], refused: [], carePlans: [], carePlanFailures: [], stopped: null };
  for (const draft of await ports.list()) {
    // A draft waiting for the assessor (their choice, a missing field) goes when they resave it.
    if (draft.conflict !== null || draft.error !== null) continue;
    const outcome = await ports.send(draft);
    if (outcome.ok) {
      await ports.remove(draft.target);
      await ports.saved(draft, outcome.saved);
      report.sent.push(draft.target);
      // Only once the assessment is on the server: the plan is drawn from the stored one.
      if (draft.carePlan && draft.mode === 'complete') {
        const plan = await ports.generateCarePlan(outcome.saved);
        if (plan.ok) report.carePlans.push(draft.target);
        else report.carePlanFailures.push({ target: draft.target, message: plan.message });
      }
      continue;
    }
    if (outcome.status === 0) {
      report.stopped = 'offline';
      break;
    }
    if (outcome.status === 401) {
      report.stopped = 'signed-out';
      break;
    }
    if (outcome.status === 409 && outcome.current !== undefined) {
      await ports.mark(draft.target, { server: outcome.current });
      report.conflicts.push(draft.target);
      continue;
    }
    await ports.mark(draft.target, { error: outcome.message });
    report.refused.push(draft.target);
  }
  return report;
}
