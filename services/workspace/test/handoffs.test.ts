import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_STATUSES } from '../src/domain/handoffs.ts';
import type { HandoffDetail } from '../src/schemas/handoffs.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, tag, VIEWER } from './harness.ts';

const DEFAULT_NOW = '2025-06-16T15:00:00Z';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: DEFAULT_NOW });
});
afterAll(async () => h.close_());
afterEach(() => h.setNow(DEFAULT_NOW));

// The sender is EDITOR, the receiver VIEWER (any member may receive), unless a test says otherwise.
const base = (p: string) => `/v1/projects/${p}/handoffs`;
const one = (p: string, id: string) => `${base(p)}/${id}`;

const create = (projectId: string, data: Record<string, unknown> = {}, as = EDITOR) =>
  h.call('POST', base(projectId), as, {
    data: {
      receiver: fid(VIEWER),
      title: `Handoff ${tag()}`,
      next_step: 'Call the vendor about the invoice',
      due_on: '2025-06-20',
      ...data,
    },
  });

async function handoff(projectId: string, data: Record<string, unknown> = {}, as = EDITOR): Promise<HandoffDetail> {
  const r = await create(projectId, data, as);
  h.expectStatus('handoff', r, 201);
  return r.data as HandoffDetail;
}

const offered = (projectId: string, data: Record<string, unknown> = {}) => handoff(projectId, { ...data, offer: true });

const act = (projectId: string, id: string, data: Record<string, unknown>, as: string, key?: string) =>
  h.call('POST', one(projectId, id), as, { data }, key ?? randomUUID());
const edit = (projectId: string, id: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('PATCH', one(projectId, id), as, { data });
const read = async (projectId: string, id: string, as = OWNER): Promise<HandoffDetail> => {
  const r = await h.call('GET', one(projectId, id), as);
  h.expectStatus('read handoff', r, 200);
  return r.data as HandoffDetail;
};

async function accepted(projectId: string): Promise<HandoffDetail> {
  const o = await offered(projectId);
  const r = await act(projectId, o.id, { action: 'accept', revision: o.revision }, VIEWER);
  h.expectStatus('accept', r, 200);
  return r.data as HandoffDetail;
}

const notificationsFor = async (subjectId: string) =>
  (
    await sql<{ recipient: string; kind: string; actor: string }>`
      SELECT recipient, kind, actor FROM notifications WHERE subject_id = ${subjectId} ORDER BY created_at, id`.execute(
      h.db,
    )
  ).rows;

const unblockRowsFor = async (handoffId: string) =>
  (
    await sql<{ id: string; status: string; asker: string; recipient: string; needed: string; source: string }>`
      SELECT id, status, asker, recipient, needed, source FROM unblock_requests
      WHERE waiting_type = 'handoff' AND waiting_id = ${handoffId} ORDER BY created_at, id`.execute(h.db)
  ).rows;

describe('a handoff package', () => {
  it('16 WS-311 POST stores the package (receiver, next step, what must stay true, evidence links, verification date, due date, revision) and GET returns it', async () => {
    const p = await h.team();
    const r = await create(p.id, {
      title: '  Hand over the Q3 vendor reconciliation  ',
      next_step: 'Post the correcting entry',
      must_stay_true: ['The vendor has not been paid twice', 'The period is open'],
      evidence_links: ['https://docs.example.test/recon.xlsx'],
      verify_by: '2025-06-18',
      due_on: '2025-06-20',
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: p.id,
      sender: fid(EDITOR),
      receiver: fid(VIEWER),
      title: 'Hand over the Q3 vendor reconciliation',
      next_step: 'Post the correcting entry',
      must_stay_true: ['The vendor has not been paid twice', 'The period is open'],
      evidence_links: ['https://docs.example.test/recon.xlsx'],
      verify_by: '2025-06-18',
      due_on: '2025-06-20',
      case_id: null,
      status: 'draft',
      revision: 1,
      overdue: false,
      receipts: [],
    });
    expect(await read(p.id, r.data.id, VIEWER)).toEqual(r.data);
    const event = (await h.events('project.handoff_created')).find((e) => e.payload.data.handoffId === r.data.id);
    expect(event?.payload.data).toMatchObject({ handoffId: r.data.id, revision: 1, actor: fid(EDITOR) });
    // The verification date is optional.
    const plain = await handoff(p.id);
    expect(plain.verify_by).toBeNull();
    expect(plain.must_stay_true).toEqual([]);
  });

  it('16 WS-311 bad input is 4xx with a clear code and nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ title: '   ' }, 422, 'invalid_handoff_text'],
      [{ next_step: 'x'.repeat(4001) }, 422, 'invalid_handoff_text'],
      [{ must_stay_true: ['fine', ' '] }, 422, 'invalid_handoff_text'],
      [{ receiver: fid(OUTSIDER) }, 422, 'receiver_not_member'],
      [{ receiver: fid(EDITOR) }, 422, 'receiver_is_sender'],
      [{ case_id: randomUUID() }, 422, 'linked_case_not_found'],
      [{ evidence_links: ['not a link'] }, 422, 'validation_failed'],
      [{ due_on: 'tomorrow' }, 422, 'validation_failed'],
      [{ status: 'accepted' }, 422, 'validation_failed'],
    ];
    for (const [data, status, code] of cases) {
      const r = await create(p.id, data);
      expect(r.status, JSON.stringify(data)).toBe(status);
      expect(r.errors[0].code).toBe(code);
    }
    // Viewers read but do not draft handoffs; outsiders do not see the project.
    expect((await create(p.id, { receiver: fid(EDITOR) }, VIEWER)).status).toBe(403);
    expect((await create(p.id, {}, OUTSIDER)).status).toBe(404);
    expect(await h.counts()).toEqual(before);
  });

  it('16 WS-312 the status always reads one of draft, offered, changes_requested, accepted, cancelled', async () => {
    const p = await h.team();
    const seen = new Set<string>();
    const d = await handoff(p.id);
    seen.add(d.status);
    seen.add((await act(p.id, d.id, { action: 'offer' }, EDITOR)).data.status);
    seen.add(
      (await act(p.id, d.id, { action: 'request_changes', revision: 1, missing: 'The bank letter' }, VIEWER)).data
        .status,
    );
    seen.add((await act(p.id, d.id, { action: 'offer' }, EDITOR)).data.status);
    seen.add((await act(p.id, d.id, { action: 'accept', revision: 1 }, VIEWER)).data.status);
    seen.add((await act(p.id, (await handoff(p.id)).id, { action: 'cancel' }, EDITOR)).data.status);
    expect([...seen].sort()).toEqual([...HANDOFF_STATUSES].sort());
    const list = await h.call('GET', base(p.id), OWNER);
    for (const item of list.data) expect(HANDOFF_STATUSES).toContain(item.status);
  });
});

describe('overdue', () => {
  it('16 WS-313 overdue is a flag computed past the due date (New York) while offered or changes requested; status never reads overdue', async () => {
    const p = await h.team();
    const o = await offered(p.id, { due_on: '2025-06-20' });
    const asked = await offered(p.id, { due_on: '2025-06-20' });
    h.expectStatus(
      'request changes',
      await act(p.id, asked.id, { action: 'request_changes', revision: 1, missing: 'The signed form' }, VIEWER),
      200,
    );
    // 23:00 on the due day in New York: not yet overdue.
    h.setNow('2025-06-21T03:00:00Z');
    expect((await read(p.id, o.id)).overdue).toBe(false);
    // 01:00 the next day in New York: overdue, and still offered.
    h.setNow('2025-06-21T05:00:00Z');
    const late = await read(p.id, o.id);
    expect(late).toMatchObject({ status: 'offered', overdue: true });
    expect(await read(p.id, asked.id)).toMatchObject({ status: 'changes_requested', overdue: true });
    const onlyOverdue = await h.call('GET', `${base(p.id)}?overdue=true`, OWNER);
    expect(onlyOverdue.data.map((x: HandoffDetail) => x.id).sort()).toEqual([o.id, asked.id].sort());
    for (const x of onlyOverdue.data) expect(HANDOFF_STATUSES).toContain(x.status);
  });

  it('16 WS-314 a draft, accepted or cancelled handoff never reads overdue, however late', async () => {
    const p = await h.team();
    const d = await handoff(p.id, { due_on: '2025-06-17' });
    const a = await accepted(p.id);
    const c = await handoff(p.id, { due_on: '2025-06-17' });
    h.expectStatus('cancel', await act(p.id, c.id, { action: 'cancel' }, EDITOR), 200);
    h.setNow('2026-01-01T12:00:00Z');
    for (const id of [d.id, a.id, c.id]) expect((await read(p.id, id)).overdue).toBe(false);
    const list = await h.call('GET', `${base(p.id)}?overdue=true`, OWNER);
    expect(list.data).toEqual([]);
  });
});

describe('offer and acceptance', () => {
  it('16 WS-315 WS-572 the sender offering a draft makes it offered, publishes an offer event and notifies the receiver', async () => {
    const p = await h.team();
    const d = await handoff(p.id);
    const r = await act(p.id, d.id, { action: 'offer' }, EDITOR);
    expect(r.status).toBe(200);
    expect(r.data.status).toBe('offered');
    expect(r.data.offered_at).toBe(new Date(DEFAULT_NOW).toISOString());
    const events = (await h.events('project.handoff_offered')).filter((e) => e.payload.data.handoffId === d.id);
    expect(events.map((e) => e.payload.data)).toEqual([
      {
        projectId: p.id,
        handoffId: d.id,
        revision: 1,
        sender: fid(EDITOR),
        receiver: fid(VIEWER),
        actor: fid(EDITOR),
      },
    ]);
    expect(await notificationsFor(d.id)).toEqual([
      { recipient: fid(VIEWER), kind: 'handoff_offered', actor: fid(EDITOR) },
    ]);
    // Only the sender offers; an offered handoff is not offered again.
    const other = await handoff(p.id);
    expect((await act(p.id, other.id, { action: 'offer' }, OWNER)).errors[0].code).toBe('not_sender');
    const again = await act(p.id, d.id, { action: 'offer' }, EDITOR);
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('invalid_handoff_transition');
  });

  it('16 WS-316 only the named receiver may accept: anyone else is 403 not_receiver and the state is unchanged', async () => {
    const p = await h.team();
    const o = await offered(p.id);
    const before = await h.counts();
    for (const who of [OWNER, EDITOR]) {
      const r = await act(p.id, o.id, { action: 'accept', revision: 1 }, who);
      expect(r.status).toBe(403);
      expect(r.errors[0].code).toBe('not_receiver');
    }
    expect((await act(p.id, o.id, { action: 'accept', revision: 1 }, OUTSIDER)).status).toBe(404);
    expect(await h.counts()).toEqual(before);
    expect(await read(p.id, o.id)).toMatchObject({ status: 'offered', receipts: [] });
  });

  it('16 WS-317 an acceptance naming a stale revision is 409 stale_revision with the current handoff; state unchanged', async () => {
    const p = await h.team();
    const o = await offered(p.id);
    h.expectStatus('edit', await edit(p.id, o.id, { next_step: 'Call the bank instead' }), 200);
    h.expectStatus('offer again', await act(p.id, o.id, { action: 'offer' }, EDITOR), 200);
    const before = await h.counts();
    const stale = await act(p.id, o.id, { action: 'accept', revision: 1 }, VIEWER);
    expect(stale.status).toBe(409);
    expect(stale.errors[0].code).toBe('stale_revision');
    expect(stale.errors[0].value).toMatchObject({ id: o.id, revision: 2, next_step: 'Call the bank instead' });
    expect(await h.counts()).toEqual(before);
    expect(await read(p.id, o.id)).toMatchObject({ status: 'offered', revision: 2, receipts: [] });
    // A missing revision is a bad request, not an acceptance of whatever is current.
    const bare = await act(p.id, o.id, { action: 'accept' }, VIEWER);
    expect(bare.status).toBe(422);
    expect(bare.errors[0].field).toContain('revision');
  });

  it('16 WS-318 WS-574 the receiver accepting moves offered to accepted, stores a receipt naming the revision, and notifies the sender', async () => {
    const p = await h.team();
    const o = await offered(p.id, { must_stay_true: ['The supplier agreed the credit'] });
    h.setNow('2025-06-17T10:00:00Z');
    const r = await act(p.id, o.id, { action: 'accept', revision: 1 }, VIEWER);
    expect(r.status).toBe(200);
    expect(r.data.status).toBe('accepted');
    expect(r.data.accepted_at).toBe('2025-06-17T10:00:00.000Z');
    expect(r.data.receipts).toEqual([
      {
        revision: 1,
        accepted_by: fid(VIEWER),
        accepted_at: '2025-06-17T10:00:00.000Z',
        package: {
          receiver: fid(VIEWER),
          title: o.title,
          next_step: o.next_step,
          must_stay_true: ['The supplier agreed the credit'],
          evidence_links: [],
          verify_by: null,
          due_on: '2025-06-20',
          case_id: null,
        },
      },
    ]);
    const event = (await h.events('project.handoff_accepted')).find((e) => e.payload.data.handoffId === o.id);
    expect(event?.payload.data).toMatchObject({ revision: 1, sender: fid(EDITOR), actor: fid(VIEWER) });
    // Rows of one instant (the test clock stands still) have no order: found by kind.
    expect((await notificationsFor(o.id)).filter((n) => n.kind === 'handoff_accepted')).toEqual([
      { recipient: fid(EDITOR), kind: 'handoff_accepted', actor: fid(VIEWER) },
    ]);
    // A draft is not accepted, even at its current revision.
    const d = await handoff(p.id);
    const draft = await act(p.id, d.id, { action: 'accept', revision: 1 }, VIEWER);
    expect(draft.status).toBe(409);
    expect(draft.errors[0].code).toBe('invalid_handoff_transition');
  });

  it('16 WS-319 acceptance does not verify a linked case: the case keeps its state', async () => {
    const p = await h.team();
    const c = await h.call('POST', `/v1/projects/${p.id}/cases`, OWNER, {
      data: { title: 'Duplicate vendor payment', subject: 'Invoice 7781', proposed_correction: 'Reverse the payment' },
    });
    h.expectStatus('case', c, 201);
    const caseBefore = await h.call('GET', `/v1/projects/${p.id}/cases/${c.data.id}`, OWNER);
    const o = await offered(p.id, { case_id: c.data.id });
    expect(o.case_id).toBe(c.data.id);
    h.setNow('2025-06-18T09:00:00Z');
    h.expectStatus('accept', await act(p.id, o.id, { action: 'accept', revision: 1 }, VIEWER), 200);
    const caseAfter = await h.call('GET', `/v1/projects/${p.id}/cases/${c.data.id}`, OWNER);
    expect(caseAfter.data.status).toBe(caseBefore.data.status);
    expect(caseAfter.data.status).not.toBe('verified');
    expect(caseAfter.data).toEqual(caseBefore.data);
  });

  it('16 a retried accept with the same Idempotency-Key lands once: one receipt, one event, one notification', async () => {
    const p = await h.team();
    const o = await offered(p.id);
    const key = randomUUID();
    const first = await act(p.id, o.id, { action: 'accept', revision: 1 }, VIEWER, key);
    const again = await act(p.id, o.id, { action: 'accept', revision: 1 }, VIEWER, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
    expect((await read(p.id, o.id)).receipts).toHaveLength(1);
    const events = (await h.events('project.handoff_accepted')).filter((e) => e.payload.data.handoffId === o.id);
    expect(events).toHaveLength(1);
    expect((await notificationsFor(o.id)).filter((n) => n.kind === 'handoff_accepted')).toHaveLength(1);
  });
});

describe('edits after acceptance', () => {
  it('16 WS-320 a sender edit of an accepted handoff makes it a draft of a new revision', async () => {
    const p = await h.team();
    const a = await accepted(p.id);
    const r = await edit(p.id, a.id, { next_step: 'Post the entry on Monday' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'draft', revision: 2, next_step: 'Post the entry on Monday' });
    const event = (await h.events('project.handoff_updated')).find((e) => e.payload.data.handoffId === a.id);
    expect(event?.payload.data).toMatchObject({ revision: 2, changedFields: ['next_step'] });
    // Only the sender edits; a no-change edit writes nothing.
    const notSender = await edit(p.id, a.id, { next_step: 'Mine now' }, OWNER);
    expect(notSender.status).toBe(403);
    expect(notSender.errors[0].code).toBe('not_sender');
    const before = await h.counts();
    const same = await edit(p.id, a.id, { next_step: 'Post the entry on Monday' });
    expect(same.data.revision).toBe(2);
    expect(await h.counts()).toEqual({ ...before, idempotency_keys: before.idempotency_keys + 1 });
  });

  it('16 WS-321 the receipt of the earlier revision stays readable after the edit, with what was accepted', async () => {
    const p = await h.team();
    const a = await accepted(p.id);
    h.expectStatus('edit', await edit(p.id, a.id, { title: 'A different package', due_on: '2025-07-01' }), 200);
    const now = await read(p.id, a.id, VIEWER);
    expect(now).toMatchObject({ status: 'draft', revision: 2, title: 'A different package' });
    expect(now.receipts).toHaveLength(1);
    expect(now.receipts[0]).toMatchObject({ revision: 1, accepted_by: fid(VIEWER) });
    expect(now.receipts[0]?.package).toMatchObject({ title: a.title, due_on: '2025-06-20' });
  });

  it('16 WS-322 after an edit the sender offers again and the handoff stays offered until the receiver accepts the new revision', async () => {
    const p = await h.team();
    const a = await accepted(p.id);
    h.expectStatus('edit', await edit(p.id, a.id, { next_step: 'Second attempt' }), 200);
    const reoffer = await act(p.id, a.id, { action: 'offer' }, EDITOR);
    expect(reoffer.data).toMatchObject({ status: 'offered', revision: 2 });
    // Time passes and other things happen: still offered, no second receipt.
    h.setNow('2025-06-19T12:00:00Z');
    expect((await act(p.id, a.id, { action: 'accept', revision: 1 }, VIEWER)).status).toBe(409);
    expect(await read(p.id, a.id)).toMatchObject({ status: 'offered', revision: 2 });
    expect((await read(p.id, a.id)).receipts.map((x) => x.revision)).toEqual([1]);
    const ok = await act(p.id, a.id, { action: 'accept', revision: 2 }, VIEWER);
    expect(ok.data.status).toBe('accepted');
    expect(ok.data.receipts.map((x: { revision: number }) => x.revision)).toEqual([1, 2]);
  });

  it('16 WS-318 WS-320 a receiver accepting while the sender edits ends in one outcome whose receipt names the revision accepted', async () => {
    const p = await h.team();
    const outcomes = { acceptedFirst: 0, editedFirst: 0 };
    for (let round = 0; round < 12; round++) {
      const o = await offered(p.id);
      const [acc, ed] = await Promise.all([
        act(p.id, o.id, { action: 'accept', revision: 1 }, VIEWER),
        edit(p.id, o.id, { next_step: `Edited in round ${round}` }),
      ]);
      expect(ed.status).toBe(200);
      const final = await read(p.id, o.id);
      // Either way the sender's edit leaves a draft of revision 2.
      expect(final).toMatchObject({ status: 'draft', revision: 2, next_step: `Edited in round ${round}` });
      if (acc.status === 200) {
        outcomes.acceptedFirst++;
        expect(final.receipts).toHaveLength(1);
        expect(final.receipts[0]).toMatchObject({ revision: 1, package: { next_step: o.next_step } });
      } else {
        outcomes.editedFirst++;
        expect(acc.status).toBe(409);
        expect(['stale_revision', 'invalid_handoff_transition']).toContain(acc.errors[0].code);
        expect(final.receipts).toEqual([]);
      }
    }
    expect(outcomes.acceptedFirst + outcomes.editedFirst).toBe(12);
  });
});

describe('changes requested', () => {
  it('16 WS-323 WS-324 WS-573 the receiver saying something is missing gives changes_requested, an open unblock request for the sender, and notifies the sender', async () => {
    const p = await h.team();
    const o = await offered(p.id);
    const r = await act(
      p.id,
      o.id,
      { action: 'request_changes', revision: 1, missing: '  The signed supplier letter ' },
      VIEWER,
    );
    expect(r.status).toBe(200);
    expect(r.data.status).toBe('changes_requested');
    const requests = await unblockRowsFor(o.id);
    expect(requests).toEqual([
      {
        id: expect.any(String),
        status: 'open',
        asker: fid(VIEWER),
        recipient: fid(EDITOR),
        needed: 'The signed supplier letter',
        source: 'handoff',
      },
    ]);
    // The sender finds it in their queue.
    const queue = await h.call('GET', '/v1/me/unblock-requests', EDITOR);
    expect(queue.data.map((x: { id: string }) => x.id)).toContain(requests[0]?.id);
    const event = (await h.events('project.handoff_changes_requested')).find((e) => e.payload.data.handoffId === o.id);
    expect(event?.payload.data).toMatchObject({ unblockRequestId: requests[0]?.id, actor: fid(VIEWER) });
    // Rows of one instant (the test clock stands still) have no order: found by kind.
    expect((await notificationsFor(o.id)).filter((n) => n.kind === 'handoff_changes_requested')).toEqual([
      { recipient: fid(EDITOR), kind: 'handoff_changes_requested', actor: fid(VIEWER) },
    ]);
    // Only the named receiver says something is missing, and says what.
    const other = await offered(p.id);
    expect(
      (await act(p.id, other.id, { action: 'request_changes', revision: 1, missing: 'x' }, OWNER)).errors[0].code,
    ).toBe('not_receiver');
    expect((await act(p.id, other.id, { action: 'request_changes', revision: 1 }, VIEWER)).status).toBe(422);
  });

  it('16 WS-323 WS-324 a crash between changes requested and its unblock request leaves neither written', async () => {
    const p = await h.team();
    const o = await offered(p.id);
    await sql`
      CREATE OR REPLACE FUNCTION fail_unblock_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.needed = 'CRASH HERE' THEN RAISE EXCEPTION 'simulated crash while opening the unblock request'; END IF;
        RETURN NEW;
      END $$`.execute(h.db);
    await sql`CREATE TRIGGER fail_unblock_insert BEFORE INSERT ON unblock_requests
      FOR EACH ROW EXECUTE FUNCTION fail_unblock_insert()`.execute(h.db);
    try {
      const before = await h.counts();
      const r = await act(p.id, o.id, { action: 'request_changes', revision: 1, missing: 'CRASH HERE' }, VIEWER);
      expect(r.status).toBe(500);
      expect(await read(p.id, o.id)).toMatchObject({ status: 'offered', revision: 1 });
      expect(await unblockRowsFor(o.id)).toEqual([]);
      expect(await notificationsFor(o.id)).toEqual([
        { recipient: fid(VIEWER), kind: 'handoff_offered', actor: fid(EDITOR) },
      ]);
      expect(await h.counts()).toEqual(before);
    } finally {
      await sql`DROP TRIGGER fail_unblock_insert ON unblock_requests`.execute(h.db);
      await sql`DROP FUNCTION fail_unblock_insert()`.execute(h.db);
    }
    // With the fault gone the same request goes through.
    const ok = await act(p.id, o.id, { action: 'request_changes', revision: 1, missing: 'The letter' }, VIEWER);
    expect(ok.data.status).toBe('changes_requested');
    expect(await unblockRowsFor(o.id)).toHaveLength(1);
  });

  it('16 WS-324 a later changes request supersedes the earlier one; acceptance supersedes what is still open', async () => {
    const p = await h.team();
    const o = await offered(p.id);
    h.expectStatus(
      'first',
      await act(p.id, o.id, { action: 'request_changes', revision: 1, missing: 'A' }, VIEWER),
      200,
    );
    h.expectStatus('offer', await act(p.id, o.id, { action: 'offer' }, EDITOR), 200);
    h.expectStatus(
      'second',
      await act(p.id, o.id, { action: 'request_changes', revision: 1, missing: 'B' }, VIEWER),
      200,
    );
    const rows = (await unblockRowsFor(o.id)).sort((x, y) => x.needed.localeCompare(y.needed));
    expect(rows.map((r) => [r.needed, r.status])).toEqual([
      ['A', 'superseded'],
      ['B', 'open'],
    ]);
    h.expectStatus('offer', await act(p.id, o.id, { action: 'offer' }, EDITOR), 200);
    h.expectStatus('accept', await act(p.id, o.id, { action: 'accept', revision: 1 }, VIEWER), 200);
    expect((await unblockRowsFor(o.id)).map((r) => r.status)).toEqual(['superseded', 'superseded']);
  });
});

describe('cancelling', () => {
  it('16 WS-325 the sender may cancel a draft, an offered or a changes-requested handoff', async () => {
    const p = await h.team();
    const d = await handoff(p.id);
    const o = await offered(p.id);
    const cr = await offered(p.id);
    h.expectStatus(
      'changes',
      await act(p.id, cr.id, { action: 'request_changes', revision: 1, missing: 'X' }, VIEWER),
      200,
    );
    for (const x of [d, o, cr]) {
      const r = await act(p.id, x.id, { action: 'cancel' }, EDITOR);
      expect(r.status).toBe(200);
      expect(r.data.status).toBe('cancelled');
    }
    // Its open unblock request is withdrawn with it.
    expect((await unblockRowsFor(cr.id)).map((r) => r.status)).toEqual(['withdrawn']);
    // The receiver does not cancel; a project owner may tidy up.
    const other = await offered(p.id);
    expect((await act(p.id, other.id, { action: 'cancel' }, VIEWER)).status).toBe(403);
    expect((await act(p.id, other.id, { action: 'cancel' }, OWNER)).data.status).toBe('cancelled');
    // A cancelled handoff is neither edited nor offered.
    expect((await edit(p.id, d.id, { title: 'Back again' })).errors[0].code).toBe('invalid_handoff_transition');
    expect((await act(p.id, d.id, { action: 'offer' }, EDITOR)).errors[0].code).toBe('invalid_handoff_transition');
  });

  it('16 WS-326 cancelling an accepted handoff is 409; it stays accepted', async () => {
    const p = await h.team();
    const a = await accepted(p.id);
    const before = await h.counts();
    const r = await act(p.id, a.id, { action: 'cancel' }, EDITOR);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('invalid_handoff_transition');
    expect((await read(p.id, a.id)).status).toBe('accepted');
    expect(await h.counts()).toEqual(before);
  });
});

describe('lists', () => {
  it('16 WS-327 GET /v1/projects/{id}/handoffs lists the project handoffs, newest first, paged', async () => {
    const p = await h.team();
    const first = await handoff(p.id);
    h.setNow('2025-06-16T16:00:00Z');
    const second = await offered(p.id);
    const r = await h.call('GET', base(p.id), VIEWER);
    expect(r.status).toBe(200);
    expect(r.data.map((x: HandoffDetail) => x.id)).toEqual([second.id, first.id]);
    expect(r.data[0]).not.toHaveProperty('receipts');
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 50, totalItems: 2 });
    const paged = await h.call('GET', `${base(p.id)}?pagination[pageSize]=1&pagination[page]=2`, VIEWER);
    expect(paged.data.map((x: HandoffDetail) => x.id)).toEqual([first.id]);
    const offeredOnly = await h.call('GET', `${base(p.id)}?status=offered`, VIEWER);
    expect(offeredOnly.data.map((x: HandoffDetail) => x.id)).toEqual([second.id]);
    expect((await h.call('GET', `${base(p.id)}?pagination[pageSize]=201`, VIEWER)).status).toBe(422);
    expect((await h.call('GET', base(p.id), OUTSIDER)).status).toBe(404);
  });

  it('16 WS-328 GET /v1/handoffs lists handoffs on every project the caller can read, none from others', async () => {
    const mine = await h.team();
    const theirs = await h.project({}, OUTSIDER);
    await h.member(theirs.id, EDITOR, 'editor');
    const a = await handoff(mine.id);
    const b = await handoff(theirs.id, { receiver: fid(OUTSIDER) });
    const viewer = await h.call('GET', '/v1/handoffs?pagination[pageSize]=200', VIEWER);
    expect(viewer.status).toBe(200);
    const ids = viewer.data.map((x: HandoffDetail) => x.id);
    expect(ids).toContain(a.id);
    expect(ids).not.toContain(b.id);
    for (const x of viewer.data) {
      expect((await h.call('GET', `/v1/projects/${x.project_id}`, VIEWER)).status).toBe(200);
    }
    const editor = await h.call('GET', '/v1/handoffs?pagination[pageSize]=200', EDITOR);
    expect(editor.data.map((x: HandoffDetail) => x.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('16 WS-329 a platform admin sees every handoff without a membership (X-Platform-As-Member limits them)', async () => {
    const p = await h.team();
    const x = await handoff(p.id);
    const admin = await h.call('GET', '/v1/handoffs?pagination[pageSize]=200', ADMIN);
    expect(admin.status).toBe(200);
    const total = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM handoffs`.execute(h.db)).rows[0]?.n);
    expect(admin.meta.pagination.totalItems).toBe(total);
    expect(admin.data.map((y: HandoffDetail) => y.id)).toContain(x.id);
    const limited = await h.call('GET', '/v1/handoffs', {
      headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' },
    });
    expect(limited.data).toEqual([]);
  });

  it('16 WS-330 GET /v1/me/handoffs lists packages offered to the caller on projects they still belong to', async () => {
    const stay = await h.team();
    const leave = await h.team();
    const kept = await offered(stay.id);
    const gone = await offered(leave.id);
    const draft = await handoff(stay.id);
    const before = await h.call('GET', '/v1/me/handoffs', VIEWER);
    expect(before.data.map((x: HandoffDetail) => x.id)).toEqual(expect.arrayContaining([kept.id, gone.id]));
    expect(before.data.map((x: HandoffDetail) => x.id)).not.toContain(draft.id);
    const left = await h.call('POST', `/v1/projects/${leave.id}/members/${fid(VIEWER)}`, VIEWER, {
      data: { remove: true },
    });
    h.expectStatus('leave', left, 200);
    const after = await h.call('GET', '/v1/me/handoffs', VIEWER);
    const ids = after.data.map((x: HandoffDetail) => x.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(gone.id);
    for (const x of after.data) expect(x).toMatchObject({ receiver: fid(VIEWER), status: 'offered' });
    // The sender is not offered their own packages.
    expect((await h.call('GET', '/v1/me/handoffs', EDITOR)).data.map((x: HandoffDetail) => x.id)).not.toContain(
      kept.id,
    );
  });
});
