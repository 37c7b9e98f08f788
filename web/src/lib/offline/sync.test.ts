// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { OpenDraft } from './drafts';
import { type SendOutcome, syncDrafts, type SyncPorts } from './sync';

interface Server {
  id: string;
  version: number;
}
type Draft = OpenDraft<{ notes: string }, Server>;

function draft(target: string, baseVersion: number, extra: Partial<Draft> = {}): Draft {
  return { target, assessmentId: target, intakeId: null, baseVersion, mode: 'draft', savedAt: 0, form: { notes: target }, conflict: null, error: null, carePlan: false, ...extra };
}

function ports(drafts: Draft[], answers: Record<string, SendOutcome<Server>>, plans: Record<string, string> = {}) {
  const sent: string[] = [];
  const generated: string[] = [];
  const removed: string[] = [];
  const marked: Record<string, { server?: unknown; error?: string }> = {};
  const saved: Server[] = [];
  const api: SyncPorts<{ notes: string }, Server> = {
    list: () => Promise.resolve(drafts),
    send: (item) => {
      sent.push(`${item.target}@${item.baseVersion}`);
      return Promise.resolve(answers[item.target] ?? { ok: false, status: 500, message: 'no answer' });
    },
    remove: (target) => {
      removed.push(target);
      return Promise.resolve();
    },
    mark: (target, outcome) => {
      marked[target] = outcome;
      return Promise.resolve();
    },
    saved: (_item, record) => {
      saved.push(record);
      return Promise.resolve();
    },
    // What happened by then: the plan must follow the assessment it is drawn from.
    generateCarePlan: (record) => {
      generated.push(`${record.id}@${record.version} after ${sent.join(',')}`);
      const refusal = plans[record.id];
      return Promise.resolve(refusal === undefined ? { ok: true } : { ok: false, message: refusal });
    },
  };
  return { api, sent, removed, marked, saved, generated };
}

describe('the drafts sync', () => {
  it('sends drafts in order with their base version; an unchanged record takes each', async () => {
    const world = ports([draft('a', 3), draft('b', 1)], {
      a: { ok: true, saved: { id: 'a', version: 4 } },
      b: { ok: true, saved: { id: 'b', version: 2 } },
    });
    const report = await syncDrafts(world.api);
    expect(world.sent).toEqual(['a@3', 'b@1']);
    expect(world.removed).toEqual(['a', 'b']);
    expect(world.saved).toEqual([
      { id: 'a', version: 4 },
      { id: 'b', version: 2 },
    ]);
    expect(report).toEqual({ sent: ['a', 'b'], conflicts: [], refused: [], carePlans: [], carePlanFailures: [], stopped: null });
    expect(world.generated).toEqual([]);
  });

  it("keeps a draft whose record changed meanwhile, with the server's version, and goes on", async () => {
    const world = ports([draft('a', 3), draft('b', 1)], {
      a: { ok: false, status: 409, message: 'changed', current: { id: 'a', version: 5 } },
      b: { ok: true, saved: { id: 'b', version: 2 } },
    });
    const report = await syncDrafts(world.api);
    expect(world.removed).toEqual(['b']);
    expect(world.marked).toEqual({ a: { server: { id: 'a', version: 5 } } });
    expect(report.conflicts).toEqual(['a']);
    expect(report.sent).toEqual(['b']);
  });

  it('stops with every draft kept when the session lapsed or the network went', async () => {
    for (const [status, stopped] of [
      [401, 'signed-out'],
      [0, 'offline'],
    ] as const) {
      const world = ports([draft('a', 3), draft('b', 1)], { a: { ok: false, status, message: 'no' } });
      const report = await syncDrafts(world.api);
      expect(world.sent).toEqual(['a@3']);
      expect(world.removed).toEqual([]);
      expect(world.marked).toEqual({});
      expect(report.stopped).toBe(stopped);
    }
  });

  it('leaves drafts waiting for the assessor, and marks a refusal with its words', async () => {
    const world = ports([draft('a', 3, { conflict: { id: 'a', version: 5 } }), draft('b', 1, { error: 'Phone is required.' }), draft('c', 2)], {
      c: { ok: false, status: 422, message: 'Client name is required.' },
    });
    const report = await syncDrafts(world.api);
    expect(world.sent).toEqual(['c@2']);
    expect(world.marked).toEqual({ c: { error: 'Client name is required.' } });
    expect(report.refused).toEqual(['c']);
  });

  it('generates a care plan asked for offline only after the server took the completed assessment', async () => {
    const world = ports(
      [draft('a', 3, { mode: 'complete', carePlan: true }), draft('b', 1, { carePlan: true }), draft('c', 2, { mode: 'complete', carePlan: true }), draft('d', 4, { mode: 'complete', carePlan: true })],
      {
        a: { ok: true, saved: { id: 'a', version: 4 } },
        b: { ok: true, saved: { id: 'b', version: 2 } },
        c: { ok: true, saved: { id: 'c', version: 3 } },
        d: { ok: false, status: 409, message: 'changed', current: { id: 'd', version: 6 } },
      },
      { c: 'Assessment must be completed first' },
    );
    const report = await syncDrafts(world.api);
    // b is a draft (not completed): no plan; d was refused: no plan.
    expect(world.generated).toEqual(['a@4 after a@3', 'c@3 after a@3,b@1,c@2']);
    expect(report.carePlans).toEqual(['a']);
    expect(report.carePlanFailures).toEqual([{ target: 'c', message: 'Assessment must be completed first' }]);
    expect(report.conflicts).toEqual(['d']);
  });
});
