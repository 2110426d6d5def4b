import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_KINDS, UNBLOCK_STATUSES } from '../src/domain/unblock-requests.ts';
import type { UnblockRequest } from '../src/schemas/unblock-requests.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

const DEFAULT_NOW = '2025-06-16T15:00:00Z';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: DEFAULT_NOW });
});
afterAll(async () => h.close_());
afterEach(() => h.setNow(DEFAULT_NOW));

// The asker is EDITOR and the recipient VIEWER (any member may be asked), unless a test says otherwise.
const base = (p: string) => `/v1/projects/${p}/unblock-requests`;
const one = (p: string, id: string) => `${base(p)}/${id}`;

/** A team project with a task to wait on. */
async function setting() {
  const p = await h.team();
  const t = await h.task(p.id);
  return { p, t };
}

const create = (projectId: string, taskId: string, data: Record<string, unknown> = {}, as = EDITOR) =>
  h.call('POST', base(projectId), as, {
    data: {
      recipient: fid(VIEWER),
      needed: 'Which bank account should the refund go to?',
      why_now: 'The refund run closes on Friday',
      waiting_record: { type: 'task', id: taskId },
      answer_kind: 'explanation',
      ...data,
    },
  });

async function request(
  projectId: string,
  taskId: string,
  data: Record<string, unknown> = {},
  as = EDITOR,
): Promise<UnblockRequest> {
  const r = await create(projectId, taskId, data, as);
  h.expectStatus('unblock request', r, 201);
  return r.data as UnblockRequest;
}

const act = (projectId: string, id: string, data: Record<string, unknown>, as: string, key?: string) =>
  h.call('POST', one(projectId, id), as, { data }, key ?? randomUUID());
const ok = async (projectId: string, id: string, data: Record<string, unknown>, as: string) => {
  const r = await act(projectId, id, data, as);
  h.expectStatus(String(data.action), r, 200);
  return r.data as UnblockRequest;
};
const read = async (projectId: string, id: string, as = OWNER): Promise<UnblockRequest> => {
  const r = await h.call('GET', one(projectId, id), as);
  h.expectStatus('read request', r, 200);
  return r.data as UnblockRequest;
};
const queueIds = async (as: string, query = '') =>
  ((await h.call('GET', `/v1/me/unblock-requests${query}`, as)).data as UnblockRequest[]).map((r) => r.id);

const unblockCount = async () =>
  Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM unblock_requests`.execute(h.db)).rows[0]?.n);

describe('asking', () => {
  it('16 WS-331 a request is one question for one member: it names exactly one recipient, a project member', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id);
    expect(r.recipient).toBe(fid(VIEWER));
    expect(r.asker).toBe(fid(EDITOR));
    const before = await h.counts();
    const notMember = await create(p.id, t.id, { recipient: fid(OUTSIDER) });
    expect(notMember.status).toBe(422);
    expect(notMember.errors[0].code).toBe('recipient_not_member');
    const two = await create(p.id, t.id, { recipient: [fid(VIEWER), fid(OWNER)] });
    expect(two.status).toBe(422);
    expect(two.errors[0].field).toContain('recipient');
    const self = await create(p.id, t.id, { recipient: fid(EDITOR) });
    expect(self.errors[0].code).toBe('recipient_is_asker');
    expect((await create(p.id, t.id, { recipient: undefined })).status).toBe(422);
    expect(await h.counts()).toEqual(before);
  });

  it('16 WS-332 a request carries what is needed, why now, the waiting record, how to answer, due date, snooze time, ranking reason and source; all returned on read', async () => {
    const { p, t } = await setting();
    const r = await create(p.id, t.id, {
      needed: '  Approve the credit note  ',
      why_now: 'The customer pays on Monday',
      answer_kind: 'choice',
      options: ['Approve', 'Reject'],
      due_on: '2025-06-19',
      snoozed_until: '2025-06-17T12:00:00Z',
      ranking_reason: 'Blocks the month-end close',
      source: 'person',
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: p.id,
      asker: fid(EDITOR),
      recipient: fid(VIEWER),
      needed: 'Approve the credit note',
      why_now: 'The customer pays on Monday',
      waiting_record: { type: 'task', id: t.id },
      answer_kind: 'choice',
      options: ['Approve', 'Reject'],
      due_on: '2025-06-19',
      snoozed_until: '2025-06-17T12:00:00.000Z',
      ranking_reason: 'Blocks the month-end close',
      source: 'person',
      status: 'open',
      answer: null,
      answers: [],
    });
    expect(await read(p.id, r.data.id, VIEWER)).toEqual(r.data);
    // Without a ranking reason the request says what the queue ranks it by.
    expect((await request(p.id, t.id, { due_on: '2025-06-30' })).ranking_reason).toBe('Due 2025-06-30');
    expect((await request(p.id, t.id)).ranking_reason).toBe('Waiting since 2025-06-16');
    // The waiting record is a task, goal or handoff of this project.
    const bad = await create(p.id, t.id, { waiting_record: { type: 'task', id: randomUUID() } });
    expect(bad.errors[0].code).toBe('waiting_record_not_found');
    const g = await h.goal(p.id);
    expect((await request(p.id, t.id, { waiting_record: { type: 'goal', id: g.id } })).waiting_record.type).toBe(
      'goal',
    );
    // The recipient hears about it.
    const n = await sql<{ recipient: string; kind: string }>`
      SELECT recipient, kind FROM notifications WHERE subject_id = ${r.data.id}`.execute(h.db);
    expect(n.rows).toEqual([{ recipient: fid(VIEWER), kind: 'unblock_request_opened' }]);
  });

  it('16 WS-333 how to answer is one of choice, value, document, decision, explanation', async () => {
    const { p, t } = await setting();
    for (const kind of ANSWER_KINDS) {
      const options = kind === 'choice' ? ['Yes', 'No'] : undefined;
      expect((await request(p.id, t.id, { answer_kind: kind, options })).answer_kind).toBe(kind);
    }
    const before = await h.counts();
    const poll = await create(p.id, t.id, { answer_kind: 'poll' });
    expect(poll.status).toBe(422);
    expect(poll.errors[0].field).toContain('answer_kind');
    expect((await create(p.id, t.id, { answer_kind: 'choice' })).errors[0].code).toBe('invalid_options');
    expect((await create(p.id, t.id, { answer_kind: 'choice', options: ['Same', 'same'] })).errors[0].code).toBe(
      'invalid_options',
    );
    expect((await create(p.id, t.id, { answer_kind: 'value', options: ['A', 'B'] })).errors[0].code).toBe(
      'invalid_options',
    );
    expect(await h.counts()).toEqual(before);
  });

  it('16 WS-334 a request with source agent is refused and nothing is written', async () => {
    const { p, t } = await setting();
    const before = await h.counts();
    const rows = await unblockCount();
    const r = await create(p.id, t.id, { source: 'agent' });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('agent_source_refused');
    expect(await h.counts()).toEqual(before);
    expect(await unblockCount()).toBe(rows);
  });
});

describe('answering and confirming', () => {
  it('16 WS-335 the status always reads one of open, answered, resolved, withdrawn, superseded', async () => {
    const { p, t } = await setting();
    const seen = new Set<string>();
    const a = await request(p.id, t.id);
    seen.add(a.status);
    seen.add((await ok(p.id, a.id, { action: 'answer', answer: 'Account ending 4411' }, VIEWER)).status);
    seen.add((await ok(p.id, a.id, { action: 'confirm' }, EDITOR)).status);
    seen.add((await ok(p.id, (await request(p.id, t.id)).id, { action: 'withdraw' }, EDITOR)).status);
    // A handoff's changes request is superseded by the receiver's next one.
    const ho = await h.call('POST', `/v1/projects/${p.id}/handoffs`, EDITOR, {
      data: { receiver: fid(VIEWER), title: 'Refund', next_step: 'Pay it', due_on: '2025-06-20', offer: true },
    });
    h.expectStatus('handoff', ho, 201);
    const hUrl = `/v1/projects/${p.id}/handoffs/${ho.data.id}`;
    h.expectStatus(
      'changes',
      await h.call('POST', hUrl, VIEWER, { data: { action: 'request_changes', revision: 1, missing: 'A' } }),
      200,
    );
    h.expectStatus('offer', await h.call('POST', hUrl, EDITOR, { data: { action: 'offer' } }), 200);
    h.expectStatus(
      'changes',
      await h.call('POST', hUrl, VIEWER, { data: { action: 'request_changes', revision: 1, missing: 'B' } }),
      200,
    );
    const all = await h.call('GET', `${base(p.id)}?pagination[pageSize]=200`, OWNER);
    for (const r of all.data as UnblockRequest[]) {
      expect(UNBLOCK_STATUSES).toContain(r.status);
      seen.add(r.status);
    }
    expect([...seen].sort()).toEqual([...UNBLOCK_STATUSES].sort());
  });

  it('16 WS-336 the recipient answering an open request moves it to answered', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id, { answer_kind: 'choice', options: ['Refund', 'Credit note'] });
    const notRecipient = await act(p.id, r.id, { action: 'answer', answer: 'Refund' }, OWNER);
    expect(notRecipient.status).toBe(403);
    expect(notRecipient.errors[0].code).toBe('not_recipient');
    const notAnOption = await act(p.id, r.id, { action: 'answer', answer: 'Cash' }, VIEWER);
    expect(notAnOption.status).toBe(422);
    expect(notAnOption.errors[0].code).toBe('invalid_answer');
    h.setNow('2025-06-17T09:00:00Z');
    const answered = await ok(p.id, r.id, { action: 'answer', answer: 'credit note' }, VIEWER);
    expect(answered.status).toBe('answered');
    expect(answered.answer).toEqual({
      answer: 'Credit note',
      answered_by: fid(VIEWER),
      answered_at: '2025-06-17T09:00:00.000Z',
      sent_back_at: null,
      sent_back_reason: null,
    });
    const again = await act(p.id, r.id, { action: 'answer', answer: 'Refund' }, VIEWER);
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('invalid_unblock_transition');
    // A document is answered with a link or a document id.
    const doc = await request(p.id, t.id, { answer_kind: 'document' });
    expect((await act(p.id, doc.id, { action: 'answer', answer: 'in my drawer' }, VIEWER)).errors[0].code).toBe(
      'invalid_answer',
    );
    expect(
      (await ok(p.id, doc.id, { action: 'answer', answer: 'https://files.example.test/w9.pdf' }, VIEWER)).status,
    ).toBe('answered');
  });

  it('16 WS-337 the asker confirming an answered request moves it to resolved', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id);
    const early = await act(p.id, r.id, { action: 'confirm' }, EDITOR);
    expect(early.status).toBe(409);
    await ok(p.id, r.id, { action: 'answer', answer: 'Done' }, VIEWER);
    const notAsker = await act(p.id, r.id, { action: 'confirm' }, VIEWER);
    expect(notAsker.status).toBe(403);
    expect(notAsker.errors[0].code).toBe('not_asker');
    const resolved = await ok(p.id, r.id, { action: 'confirm' }, EDITOR);
    expect(resolved.status).toBe('resolved');
    expect(resolved.closed_at).toBe(new Date(DEFAULT_NOW).toISOString());
    const event = (await h.events('project.unblock_request_resolved')).find((e) => e.payload.data.requestId === r.id);
    expect(event?.payload.data).toMatchObject({ asker: fid(EDITOR), recipient: fid(VIEWER), actor: fid(EDITOR) });
  });

  it('16 WS-338 WS-339 the asker sending back an answered request reopens it and the earlier answer stays readable', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id);
    await ok(p.id, r.id, { action: 'answer', answer: 'Account 4411' }, VIEWER);
    h.setNow('2025-06-16T16:00:00Z');
    const back = await ok(p.id, r.id, { action: 'send_back', reason: 'That account is closed' }, EDITOR);
    expect(back.status).toBe('open');
    expect(back.answer).toBeNull();
    expect(back.answers).toEqual([
      {
        answer: 'Account 4411',
        answered_by: fid(VIEWER),
        answered_at: new Date(DEFAULT_NOW).toISOString(),
        sent_back_at: '2025-06-16T16:00:00.000Z',
        sent_back_reason: 'That account is closed',
      },
    ]);
    expect(await queueIds(VIEWER)).toContain(r.id);
    const second = await ok(p.id, r.id, { action: 'answer', answer: 'Account 5522' }, VIEWER);
    expect(second.answer?.answer).toBe('Account 5522');
    expect((await read(p.id, r.id)).answers.map((a) => a.answer)).toEqual(['Account 4411', 'Account 5522']);
  });

  it('16 WS-335 the asker may withdraw an open or answered request; a closed one stays closed', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id);
    expect((await act(p.id, r.id, { action: 'withdraw' }, VIEWER)).errors[0].code).toBe('not_asker');
    expect((await ok(p.id, r.id, { action: 'withdraw' }, EDITOR)).status).toBe('withdrawn');
    expect((await act(p.id, r.id, { action: 'answer', answer: 'Late' }, VIEWER)).status).toBe(409);
  });

  it('16 WS-336 a retried answer with the same Idempotency-Key lands once', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id);
    const key = randomUUID();
    const first = await act(p.id, r.id, { action: 'answer', answer: 'Yes' }, VIEWER, key);
    const again = await act(p.id, r.id, { action: 'answer', answer: 'Yes' }, VIEWER, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await read(p.id, r.id)).answers).toHaveLength(1);
    expect(
      (await h.events('project.unblock_request_answered')).filter((e) => e.payload.data.requestId === r.id),
    ).toHaveLength(1);
  });
});

describe('snooze and the personal queue', () => {
  it('16 WS-340 WS-341 snooze hides the card from the queue until its time, then it is listed; the due date is unchanged', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id, { due_on: '2025-06-18' });
    expect(await queueIds(VIEWER)).toContain(r.id);
    const snoozed = await ok(p.id, r.id, { action: 'snooze', until: '2025-06-17T13:00:00Z' }, VIEWER);
    expect(snoozed.snoozed_until).toBe('2025-06-17T13:00:00.000Z');
    expect(snoozed.due_on).toBe('2025-06-18');
    expect(snoozed.status).toBe('open');
    expect(await queueIds(VIEWER)).not.toContain(r.id);
    h.setNow('2025-06-17T12:59:59Z');
    expect(await queueIds(VIEWER)).not.toContain(r.id);
    h.setNow('2025-06-17T13:00:00Z');
    expect(await queueIds(VIEWER)).toContain(r.id);
    expect((await read(p.id, r.id)).due_on).toBe('2025-06-18');
    // A snooze lasts until a later time; outsiders to the request do not snooze it.
    h.setNow(DEFAULT_NOW);
    expect((await act(p.id, r.id, { action: 'snooze', until: '2025-06-16T14:00:00Z' }, VIEWER)).errors[0].code).toBe(
      'invalid_snooze',
    );
    expect((await act(p.id, r.id, { action: 'snooze', until: '2025-06-20T14:00:00Z' }, OWNER)).status).toBe(403);
  });

  it('16 WS-342 the queue holds exactly the open requests the caller must answer and the answered ones they must confirm', async () => {
    const { p, t } = await setting();
    const toAnswer = await request(p.id, t.id, { recipient: fid(OWNER) });
    const toConfirm = await request(p.id, t.id, {}, OWNER);
    await ok(p.id, toConfirm.id, { action: 'answer', answer: 'Here it is' }, VIEWER);
    const askedOpen = await request(p.id, t.id, {}, OWNER);
    const answeredByMe = await request(p.id, t.id);
    await ok(p.id, answeredByMe.id, { action: 'answer', answer: 'Sure' }, VIEWER);
    const resolved = await request(p.id, t.id, { recipient: fid(OWNER) });
    await ok(p.id, resolved.id, { action: 'answer', answer: 'Fine' }, OWNER);
    await ok(p.id, resolved.id, { action: 'confirm' }, EDITOR);
    const withdrawn = await request(p.id, t.id, { recipient: fid(OWNER) });
    await ok(p.id, withdrawn.id, { action: 'withdraw' }, EDITOR);

    const mine = await queueIds(OWNER, '?pagination[pageSize]=200');
    const onThisProject = mine.filter((id) =>
      [toAnswer, toConfirm, askedOpen, answeredByMe, resolved, withdrawn].some((r) => r.id === id),
    );
    expect(onThisProject.sort()).toEqual([toAnswer.id, toConfirm.id].sort());
    for (const r of (await h.call('GET', '/v1/me/unblock-requests?pagination[pageSize]=200', OWNER))
      .data as UnblockRequest[]) {
      expect(
        (r.status === 'open' && r.recipient === fid(OWNER)) || (r.status === 'answered' && r.asker === fid(OWNER)),
      ).toBe(true);
    }
    // A project the caller left drops out of their queue.
    expect(await queueIds(VIEWER, '?pagination[pageSize]=200')).toContain(askedOpen.id);
    const left = await h.call('POST', `/v1/projects/${p.id}/members/${fid(VIEWER)}`, VIEWER, {
      data: { remove: true },
    });
    h.expectStatus('leave', left, 200);
    expect(await queueIds(VIEWER, '?pagination[pageSize]=200')).not.toContain(askedOpen.id);
  });

  it('16 WS-342 the queue goes by due date (soonest first, none last), then oldest first', async () => {
    const p = await h.team();
    await h.member(p.id, OUTSIDER, 'viewer');
    const t = await h.task(p.id);
    const asked = (data: Record<string, unknown>) => request(p.id, t.id, { recipient: fid(OUTSIDER), ...data });
    const none = await asked({});
    const late = await asked({ due_on: '2025-07-01' });
    const soon = await asked({ due_on: '2025-06-18' });
    expect(await queueIds(OUTSIDER)).toEqual([soon.id, late.id, none.id]);
  });

  it('16 WS-343 include_snoozed=true keeps snoozed cards in the queue', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id, { snoozed_until: '2025-06-20T00:00:00Z' });
    expect(await queueIds(VIEWER)).not.toContain(r.id);
    expect(await queueIds(VIEWER, '?include_snoozed=true')).toContain(r.id);
    // Answering wakes it for the asker, whose card it now is.
    await ok(p.id, r.id, { action: 'answer', answer: 'Yes' }, VIEWER);
    expect(await queueIds(EDITOR)).toContain(r.id);
  });
});

describe('lists', () => {
  it('16 WS-344 GET and POST /v1/projects/{id}/unblock-requests list and create the project requests', async () => {
    const { p, t } = await setting();
    const first = await create(p.id, t.id);
    expect(first.status).toBe(201);
    h.setNow('2025-06-16T16:00:00Z');
    const second = await request(p.id, t.id);
    const list = await h.call('GET', base(p.id), VIEWER);
    expect(list.status).toBe(200);
    expect(list.data.map((r: UnblockRequest) => r.id)).toEqual([second.id, first.data.id]);
    expect(list.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 50, totalItems: 2 });
    await ok(p.id, second.id, { action: 'answer', answer: 'Yes' }, VIEWER);
    const answered = await h.call('GET', `${base(p.id)}?status=answered`, VIEWER);
    expect(answered.data.map((r: UnblockRequest) => r.id)).toEqual([second.id]);
    // Viewers read but do not ask; outsiders see nothing.
    expect((await create(p.id, t.id, { recipient: fid(EDITOR) }, VIEWER)).status).toBe(403);
    expect((await h.call('GET', base(p.id), OUTSIDER)).status).toBe(404);
  });

  it('16 WS-345 GET /v1/unblock-requests lists requests on every project the caller can read, none from others', async () => {
    const { p, t } = await setting();
    const theirs = await h.project({}, OUTSIDER);
    await h.member(theirs.id, EDITOR, 'editor');
    const theirTask = await h.task(theirs.id, {}, OUTSIDER);
    const a = await request(p.id, t.id);
    const b = await request(theirs.id, theirTask.id, { recipient: fid(OUTSIDER) });
    const viewer = await h.call('GET', '/v1/unblock-requests?pagination[pageSize]=200', VIEWER);
    expect(viewer.status).toBe(200);
    const ids = viewer.data.map((r: UnblockRequest) => r.id);
    expect(ids).toContain(a.id);
    expect(ids).not.toContain(b.id);
    const editor = await h.call('GET', '/v1/unblock-requests?pagination[pageSize]=200', EDITOR);
    expect(editor.data.map((r: UnblockRequest) => r.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('16 WS-346 a platform admin sees every unblock request (X-Platform-As-Member limits them)', async () => {
    const { p, t } = await setting();
    const r = await request(p.id, t.id);
    const admin = await h.call('GET', '/v1/unblock-requests?pagination[pageSize]=200', ADMIN);
    expect(admin.status).toBe(200);
    expect(admin.meta.pagination.totalItems).toBe(await unblockCount());
    expect(admin.data.map((x: UnblockRequest) => x.id)).toContain(r.id);
    const limited = await h.call('GET', '/v1/unblock-requests', {
      headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' },
    });
    expect(limited.data).toEqual([]);
  });
});
