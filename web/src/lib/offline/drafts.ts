/**
 * Assessments saved on the device while there is no network: each kept sealed with the
 * version it was based on, in the order saved, until the server has it. Screens listen
 * here to show "Saved on this device" and, after a refused sync, the server's version.
 */
import { open, seal } from './crypto';
import { type DraftMode, offlineDb, type StoredDraft } from './db';
import { activeKey } from './session-key';

/** What a screen shows of a draft: its form, and the server's record when they differ. */
export interface OpenDraft<Form, Server> {
  target: string;
  assessmentId: string | null;
  intakeId: string | null;
  baseVersion: number | null;
  mode: DraftMode;
  savedAt: number;
  form: Form;
  conflict: Server | null;
  error: string | null;
  /** Generate the care plan once the server has the assessment. */
  carePlan: boolean;
}

export interface DraftInput<Form> {
  assessmentId: string | null;
  intakeId: string | null;
  baseVersion: number | null;
  mode: DraftMode;
  form: Form;
  /** Asks for the care plan on sync; a draft saved again keeps an earlier ask. */
  carePlan?: boolean;
}

/** An assessment's id, or `intake:<id>` for one not yet on the server. */
export function draftTarget(assessmentId: string | null, intakeId: string | null): string {
  return assessmentId ?? `intake:${intakeId ?? ''}`;
}

const listeners = new Set<() => void>();

export function onDraftsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function draftsChanged(): void {
  for (const listener of listeners) listener();
}

let lastSeq = 0;
function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now());
  return lastSeq;
}

/** Keeps the form on the device; false when there is no key to seal it with. */
export async function saveDraft<Form>(input: DraftInput<Form>): Promise<boolean> {
  const current = await activeKey();
  if (!current) return false;
  const target = draftTarget(input.assessmentId, input.intakeId);
  const id = `${current.userId} ${target}`;
  const db = await offlineDb();
  const previous = await db.get('drafts', id);
  await db.put('drafts', {
    id,
    userId: current.userId,
    target,
    // A draft saved again keeps its place in the queue.
    seq: previous?.seq ?? nextSeq(),
    assessmentId: input.assessmentId,
    intakeId: input.intakeId,
    baseVersion: input.baseVersion,
    mode: input.mode,
    savedAt: Date.now(),
    sealed: await seal(current.key, id, input.form),
    conflict: null,
    error: null,
    carePlan: input.carePlan ?? previous?.carePlan ?? false,
  });
  draftsChanged();
  return true;
}

async function openDraft<Form, Server>(key: CryptoKey, draft: StoredDraft): Promise<OpenDraft<Form, Server>> {
  return {
    target: draft.target,
    assessmentId: draft.assessmentId,
    intakeId: draft.intakeId,
    baseVersion: draft.baseVersion,
    mode: draft.mode,
    savedAt: draft.savedAt,
    form: await open<Form>(key, draft.id, draft.sealed),
    conflict: draft.conflict ? await open<Server>(key, `${draft.id} conflict`, draft.conflict) : null,
    error: draft.error,
    carePlan: draft.carePlan ?? false,
  };
}

export async function readDraft<Form, Server>(target: string): Promise<OpenDraft<Form, Server> | null> {
  const current = await activeKey();
  if (!current) return null;
  const draft = await (await offlineDb()).get('drafts', `${current.userId} ${target}`);
  if (!draft) return null;
  try {
    return await openDraft<Form, Server>(current.key, draft);
  } catch {
    return null;
  }
}

/** The signed-in user's drafts in the order they were first saved. */
export async function listDrafts<Form, Server>(): Promise<OpenDraft<Form, Server>[]> {
  const current = await activeKey();
  if (!current) return [];
  const rows = await (await offlineDb()).getAllFromIndex('drafts', 'byUser', current.userId);
  rows.sort((a, b) => a.seq - b.seq);
  const drafts: OpenDraft<Form, Server>[] = [];
  for (const row of rows) {
    try {
      drafts.push(await openDraft<Form, Server>(current.key, row));
    } catch {
      // A draft this key cannot open belongs to no one who can send it.
    }
  }
  return drafts;
}

export async function removeDraft(target: string): Promise<void> {
  const current = await activeKey();
  if (!current) return;
  await (await offlineDb()).delete('drafts', `${current.userId} ${target}`);
  draftsChanged();
}

/** Marks a draft refused: the server's record changed meanwhile (`server`), or a message. */
export async function markDraft(target: string, outcome: { server?: unknown; error?: string }): Promise<void> {
  const current = await activeKey();
  if (!current) return;
  const db = await offlineDb();
  const id = `${current.userId} ${target}`;
  const draft = await db.get('drafts', id);
  if (!draft) return;
  await db.put('drafts', {
    ...draft,
    conflict: outcome.server === undefined ? draft.conflict : await seal(current.key, `${id} conflict`, outcome.server),
    error: outcome.error ?? null,
  });
  draftsChanged();
}
