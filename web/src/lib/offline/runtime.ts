/**
 * The offline copy at work in the app: taken when a signed-in user is online, refreshed
 * when the network comes back, and the drafts sent then (sync.ts). The assessment
 * endpoints a draft goes to are the ones the form uses online.
 */
import { apiRequest, isApiError } from '@/lib/api-client';
import { prepareOfflineCopy, purgeExpired, saveRecord } from './copy';
import { listDrafts, markDraft, type OpenDraft, removeDraft } from './drafts';
import { type SendOutcome, syncDrafts, type SyncReport } from './sync';

/** The assessment as the API answers it: only what sending needs. */
export interface SyncedAssessment {
  id: string;
  version: number;
}

type Draft = OpenDraft<unknown, SyncedAssessment>;

async function send(draft: Draft): Promise<SendOutcome<SyncedAssessment>> {
  const body = { version: draft.baseVersion ?? 0, form: draft.form };
  const suffix = draft.mode === 'draft' ? '/draft' : '';
  try {
    const saved = draft.assessmentId
      ? await apiRequest<SyncedAssessment>(`/api/assessments/${draft.assessmentId}${suffix}`, { method: 'PUT', body, allowUnauthenticated: true })
      : await apiRequest<SyncedAssessment>(`/api/assessments${suffix}`, { method: 'POST', body: { intake_id: draft.intakeId, form: draft.form }, allowUnauthenticated: true });
    return { ok: true, saved };
  } catch (error) {
    if (!isApiError(error)) return { ok: false, status: 0, message: String(error) };
    const current = error.current as SyncedAssessment | undefined;
    return { ok: false, status: error.status, message: error.message, ...(current ? { current } : {}) };
  }
}

async function generateCarePlan(record: SyncedAssessment): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    await apiRequest<unknown>(`/api/assessments/${record.id}/care-plan`, { method: 'POST', body: {}, allowUnauthenticated: true });
    return { ok: true };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A draft the server took: the screen's target and the record it became. */
export interface SyncedDraft {
  target: string;
  record: SyncedAssessment;
}

type SyncedListener = (report: SyncReport, saved: SyncedDraft[]) => void;
const syncedListeners = new Set<SyncedListener>();

/** Told after each round that sent or refused something. */
export function onSynced(listener: SyncedListener): () => void {
  syncedListeners.add(listener);
  return () => syncedListeners.delete(listener);
}

let running: Promise<SyncReport> | null = null;

/** One round at a time: a round asked for during another waits for it and runs after. */
export function syncNow(): Promise<SyncReport> {
  const previous = running ?? Promise.resolve(null);
  const round = previous.then(async () => {
    const saved: SyncedDraft[] = [];
    const report = await syncDrafts<unknown, SyncedAssessment>({
      list: () => listDrafts<unknown, SyncedAssessment>(),
      send,
      remove: removeDraft,
      mark: markDraft,
      saved: async (draft, record) => {
        saved.push({ target: draft.target, record });
        await saveRecord(`/api/assessments/${record.id}`, record);
      },
      generateCarePlan,
    });
    if (report.sent.length + report.conflicts.length + report.refused.length > 0) for (const listener of syncedListeners) listener(report, saved);
    return report;
  });
  running = round.finally(() => {
    if (running === round) running = null;
  });
  return round;
}

const get = <T>(path: string) => apiRequest<T>(path);

/**
 * Starts the offline copy for the signed-in user: takes it now and whenever the network
 * comes back, and sends waiting drafts first. Answers how to stop listening.
 */
let preparing: Promise<void> | null = null;

/**
 * Waits for the copy's round and the drafts' round under way, if any: a wipe made during
 * one would be undone by its next write (opening the database creates it again).
 */
export async function settle(): Promise<void> {
  await preparing?.catch(() => undefined);
  await running?.catch(() => undefined);
}

export function startOfflineCopy(userId: string): () => void {
  const refresh = () => {
    if (!navigator.onLine) return;
    // One round at a time (a screen mounted twice, the network back during a round).
    preparing ??= (async () => {
      try {
        await prepareOfflineCopy(userId, get);
      } catch (error) {
        // The copy is a convenience: the screens online do not depend on it.
        console.warn('The offline copy could not be taken', error);
      }
      try {
        await syncNow();
      } catch (error) {
        console.warn('The assessments saved on this device could not be sent yet', error);
      } finally {
        preparing = null;
      }
    })();
  };
  // The retention window runs out offline too.
  void purgeExpired().catch(() => undefined);
  refresh();
  window.addEventListener('online', refresh);
  return () => window.removeEventListener('online', refresh);
}
