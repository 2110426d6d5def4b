import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpIntelligence, type Intelligence, type ObjectionsRequest } from '../src/clients/intelligence.ts';
import { type FakeIntelligence, startFakeIntelligence } from './fakes/intelligence.ts';
import {
  EDITOR,
  fid,
  type Harness,
  harness,
  OUTSIDER,
  OWNER,
  REDACTION_KEY,
  SERVICE_TOKEN,
  tag,
  VIEWER,
} from './harness.ts';

/**
 * The objections and related panels (spec 2, "Conversations"; WS-386…WS-402), answered by a
 * local fake of the intelligence service speaking the contract in docs/decisions.md. Down, slow
 * or nonsensical answers give degraded: true with empty lists, never a 5xx.
 */
const TIMEOUT_MS = 300;
let h: Harness;
let fake: FakeIntelligence;

/** Three claims against any plan, each with a quoted source. */
const CLAIMS = (req: ObjectionsRequest) =>
  ['c-1', 'c-2', 'c-3'].map((id, i) => ({
    claim_id: id,
    statement: `Objection ${id} to ${req.plan.slice(0, 10)}`,
    confidence: 0.9 - i * 0.1,
    sources: [{ source_id: `s-${id}`, kind: 'meeting', title: `Meeting ${id}`, quote: `"we tried ${id} before"` }],
  }));

/** The client the app asks: the fake's, unless a test points it elsewhere (nowhere, or a closed port). */
let client: Intelligence;
const switchable: Intelligence = {
  suggestProjects: (req, who) => client.suggestProjects(req, who),
  objections: (req, who) => client.objections(req, who),
  related: (req, who) => client.related(req, who),
};
const toFake = () => new HttpIntelligence({ baseUrl: fake.url, serviceToken: SERVICE_TOKEN, timeoutMs: TIMEOUT_MS });

beforeAll(async () => {
  fake = await startFakeIntelligence(SERVICE_TOKEN);
  client = toFake();
  h = await harness({ app: { intelligence: switchable } });
});
afterAll(async () => {
  await h.close_();
  await fake.close();
});
beforeEach(() => {
  client = toFake();
  fake.panels.failure = undefined;
  fake.panels.requests = [];
  // Like the real service, the fake honours the exclusions it is sent.
  fake.panels.objections = (req) => ({
    claims: CLAIMS(req).filter((c) => !req.exclude_claim_ids.includes(c.claim_id)),
  });
  fake.panels.related = (req) => ({
    claims: [{ claim_id: 'r-1', statement: `About ${req.text.split(' ')[0]}`, score: 0.8 }],
    records: [{ kind: 'decision', id: 'd-1', title: 'Use the general workflow' }],
  });
});

/** A conversation filed on a fresh team project (owner, editor, viewer), started by EDITOR. */
async function shared() {
  const p = await h.team();
  const r = await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: { title: `Conv ${tag()}` } });
  h.expectStatus('conversation', r, 201);
  return r.data.id as string;
}

/** An unfiled conversation of `who`. */
async function unfiled(who = EDITOR) {
  const r = await h.call('POST', '/v1/conversations', who, { data: { title: `Mine ${tag()}` } });
  h.expectStatus('conversation', r, 201);
  return r.data.id as string;
}

const objections = (id: string, as = EDITOR, plan = 'Move the launch to March') =>
  h.call('POST', `/v1/conversations/${id}/objections`, as, { data: { plan } });

const turn = async (id: string, text: string, as = EDITOR, extra: Record<string, unknown> = {}) => {
  const r = await h.call('POST', `/v1/conversations/${id}/turns`, as, { data: { text, ...extra } });
  h.expectStatus('turn', r, 201);
  return r.data.seq as number;
};

const related = (id: string, body: unknown, as = EDITOR) =>
  h.call('POST', `/v1/conversations/${id}/related`, as, body, null);

describe('objections', () => {
  it('16 WS-386 the panel forwards the plan to the intelligence service and answers 200 with its claims', async () => {
    const id = await unfiled();
    const r = await objections(id);
    expect(r.status).toBe(200);
    expect(r.data.degraded).toBe(false);
    expect(r.data.claims.map((c: { claim_id: string }) => c.claim_id)).toEqual(['c-1', 'c-2', 'c-3']);
    const sent = fake.panels.requests[0];
    expect(sent?.path).toBe('/v1/conversations/objections');
    expect(sent?.headers['x-platform-on-behalf-of']).toBe(EDITOR);
    expect(sent?.body).toMatchObject({ conversation_id: id, project_id: null, plan: 'Move the launch to March' });
  });

  it('16 WS-387 the panel needs editor on the conversation: a viewer is 403, a stranger 404, nothing asked or written', async () => {
    const id = await shared();
    const before = await h.state();
    const viewer = await objections(id, VIEWER);
    expect(viewer.status).toBe(403);
    const stranger = await objections(id, OUTSIDER);
    expect([stranger.status, stranger.errors[0].code]).toEqual([404, 'conversation_not_found']);
    expect(fake.panels.requests).toHaveLength(0);
    expect(await h.state()).toEqual(before);
    expect((await objections(id, OWNER)).status).toBe(200);
  });

  it('16 WS-388 private when only the caller can read it: an unfiled one they started, or a filed one where they are the only member', async () => {
    const mine = await unfiled();
    const a = await objections(mine);
    expect(a.data.audience).toBe('private');
    expect(fake.panels.requests[0]?.body).toMatchObject({ audience: 'private' });
    // Private answers keep the quotes.
    expect(a.data.claims[0].sources[0].quote).toBe('"we tried c-1 before"');
    const solo = await h.project({}, EDITOR);
    const filed = await h.call('POST', `/v1/projects/${solo.id}/conversations`, EDITOR, { data: { title: 'Solo' } });
    const b = await objections(filed.data.id);
    expect(b.data.audience).toBe('private');
  });

  it('16 WS-389 otherwise the answer is shared', async () => {
    const id = await shared();
    const r = await objections(id);
    expect(r.data.audience).toBe('shared');
    expect(fake.panels.requests[0]?.body).toMatchObject({ audience: 'shared' });
  });

  it('16 WS-390 a shared answer omits quotes', async () => {
    const id = await shared();
    const r = await objections(id);
    expect(r.data.claims).toHaveLength(3);
    for (const c of r.data.claims) for (const s of c.sources) expect(s).not.toHaveProperty('quote');
    expect(JSON.stringify(r.body)).not.toContain('we tried');
  });

  it('16 WS-391 the claims raised are listed in an assistant turn’s extra.raised_objections', async () => {
    const id = await shared();
    const before = (await h.call('GET', `/v1/conversations/${id}`, EDITOR)).data;
    const r = await objections(id);
    expect(r.data.raised_turn_seq).toBe(1);
    const turns = await h.call('GET', `/v1/conversations/${id}/turns`, VIEWER);
    expect(turns.data).toEqual([
      expect.objectContaining({
        seq: 1,
        author: 'agent:objections',
        turn_kind: 'lookup',
        extra: { raised_objections: ['c-1', 'c-2', 'c-3'], audience: 'shared' },
      }),
    ]);
    // The record is bookkeeping: utterance counts do not move.
    const after = (await h.call('GET', `/v1/conversations/${id}`, EDITOR)).data;
    expect([after.turn_count, after.utterance_count]).toEqual([before.turn_count, before.utterance_count]);
    const raised = (await h.events('conversation.objections_raised'))
      .map((e) => (e.payload as { data: Record<string, unknown> }).data)
      .filter((d) => d.conversationId === id);
    expect(raised).toEqual([
      {
        conversationId: id,
        projectId: expect.any(String),
        seq: 1,
        claimIds: ['c-1', 'c-2', 'c-3'],
        audience: 'shared',
        actor: fid(EDITOR),
      },
    ]);
  });

  it('16 WS-392 claims already raised are excluded from later calls, also those an agent recorded on its own turn', async () => {
    const id = await unfiled();
    // An agent raised c-2 in its own reply.
    await turn(id, 'You might reconsider: c-2', EDITOR, {
      author: 'agent:gpt-4.1',
      extra: { raised_objections: [{ claim_id: 'c-2' }] },
    });
    const first = await objections(id);
    expect(first.data.claims.map((c: { claim_id: string }) => c.claim_id)).toEqual(['c-1', 'c-3']);
    expect(fake.panels.requests[0]?.body).toMatchObject({ exclude_claim_ids: ['c-2'] });
    // Even a service that ignores the exclusions cannot raise them again.
    fake.panels.objections = (req) => ({ claims: CLAIMS(req) });
    const later = await objections(id);
    expect(later.status).toBe(200);
    expect(later.data).toMatchObject({ claims: [], raised_turn_seq: null, degraded: false });
    expect((fake.panels.requests[1]?.body as ObjectionsRequest | undefined)?.exclude_claim_ids).toEqual(
      expect.arrayContaining(['c-1', 'c-2', 'c-3']),
    );
  });

  it('16 WS-393 an unreachable, failing, slow or nonsensical intelligence service gives 200 degraded: true with empty lists; nothing written', async () => {
    const id = await shared();
    for (const failure of [
      { kind: 'fail', status: 500 },
      { kind: 'fail', status: 401 },
      { kind: 'slow', ms: TIMEOUT_MS * 3 },
      { kind: 'nonsense' },
    ] as const) {
      fake.panels.failure = failure;
      const before = await h.counts();
      const r = await objections(id);
      expect(r.status).toBe(200);
      expect(r.data).toEqual({ audience: 'shared', degraded: true, claims: [], raised_turn_seq: null });
      const after = await h.counts();
      // Only the command's stored key is new.
      expect({ ...after, idempotency_keys: 0 }).toEqual({ ...before, idempotency_keys: 0 });
    }
    // No intelligence service configured at all: the same.
    client = new HttpIntelligence({});
    const r = await objections(id);
    expect([r.status, r.data.degraded, r.data.claims]).toEqual([200, true, []]);
  });

  it('16 WS-393 an unreachable service (nothing listening) is degraded too, for both panels', async () => {
    const id = await unfiled();
    const seq = await turn(id, 'one two three four five');
    client = new HttpIntelligence({
      baseUrl: 'http://127.0.0.1:9',
      serviceToken: SERVICE_TOKEN,
      timeoutMs: TIMEOUT_MS,
    });
    const r = await objections(id);
    expect([r.status, r.data.degraded, r.data.claims]).toEqual([200, true, []]);
    const rel = await related(id, { turn_seq: seq });
    expect([rel.status, rel.data.degraded, rel.data.claims, rel.data.records]).toEqual([200, true, [], []]);
  });

  it('16 WS-386 a retried call (same Idempotency-Key) records the claims once', async () => {
    const id = await unfiled();
    const key = randomUUID();
    const a = await h.call('POST', `/v1/conversations/${id}/objections`, EDITOR, { data: { plan: 'Hire two' } }, key);
    const b = await h.call('POST', `/v1/conversations/${id}/objections`, EDITOR, { data: { plan: 'Hire two' } }, key);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.data).toEqual(a.data);
    expect(fake.panels.requests).toHaveLength(1);
    expect((await h.call('GET', `/v1/conversations/${id}/turns`, EDITOR)).data).toHaveLength(1);
  });

  it('16 WS-386 bad input is 422 with nothing written: empty plan, archived conversation is 409', async () => {
    const id = await unfiled();
    const before = await h.state();
    const empty = await objections(id, EDITOR, '   ');
    expect([empty.status, empty.errors[0].code]).toEqual([422, 'invalid_plan']);
    expect(await h.state()).toEqual(before);
    await h.call('PATCH', `/v1/conversations/${id}`, EDITOR, { data: { status: 'archived' } });
    const archived = await objections(id);
    expect([archived.status, archived.errors[0].code]).toEqual([409, 'conversation_archived']);
  });

  it('16 WS-394 feedback rates a raised claim useful, already_knew or wrong; any other value is refused', async () => {
    const id = await shared();
    await objections(id);
    const url = `/v1/conversations/${id}/objections/feedback`;
    for (const rating of ['useful', 'already_knew', 'wrong']) {
      const r = await h.call('POST', url, EDITOR, { data: { claim_id: 'c-1', rating } });
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ conversation_id: id, claim_id: 'c-1', rating, rated_by: fid(EDITOR) });
    }
    const rows = await h.db.selectFrom('objection_feedback').selectAll().where('conversation_id', '=', id).execute();
    expect(rows.map((r) => r.rating)).toEqual(['wrong']);
    const before = await h.state();
    const bad = await h.call('POST', url, EDITOR, { data: { claim_id: 'c-1', rating: 'meh' } });
    expect([bad.status, bad.errors[0].code]).toEqual([422, 'validation_failed']);
    const notRaised = await h.call('POST', url, EDITOR, { data: { claim_id: 'c-9', rating: 'useful' } });
    expect([notRaised.status, notRaised.errors[0].code]).toEqual([422, 'claim_not_raised']);
    expect((await h.call('POST', url, VIEWER, { data: { claim_id: 'c-1', rating: 'useful' } })).status).toBe(403);
    expect(await h.state()).toEqual(before);
    const rated = (await h.events('conversation.objection_rated'))
      .map((e) => (e.payload as { data: Record<string, unknown> }).data)
      .filter((d) => d.conversationId === id);
    expect(rated.map((d) => d.rating)).toEqual(['useful', 'already_knew', 'wrong']);
  });
});

describe('related', () => {
  it('16 WS-395 the body is only turn_seq: any other key is refused (422)', async () => {
    const id = await unfiled();
    const seq = await turn(id, 'What did we decide about the lease renewal?');
    for (const body of [{ turn_seq: seq, limit: 5 }, { data: { turn_seq: seq } }, { turn_seq: seq, why: 'x' }]) {
      const r = await related(id, body);
      expect([r.status, r.errors[0].code]).toEqual([422, 'validation_failed']);
    }
    expect(fake.panels.requests).toHaveLength(0);
  });

  it('16 WS-396 the panel reads the caller’s own message: 200 with related claims and records', async () => {
    const id = await shared();
    const seq = await turn(id, 'What did we decide about the lease renewal?');
    const r = await related(id, { turn_seq: seq });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      turn_seq: seq,
      skipped: null,
      degraded: false,
      claims: [{ claim_id: 'r-1', statement: 'About What', score: 0.8 }],
      records: [{ kind: 'decision', id: 'd-1', title: 'Use the general workflow' }],
    });
    expect(fake.panels.requests[0]).toMatchObject({
      path: '/v1/conversations/related',
      body: { turn_seq: seq, text: 'What did we decide about the lease renewal?' },
    });
    // Written as their email, it is their message too.
    const byEmail = await turn(id, 'Another question about the lease terms', EDITOR, { author: EDITOR });
    expect((await related(id, { turn_seq: byEmail })).status).toBe(200);
  });

  it('16 WS-397 another person’s message is refused (422), and so is an agent’s', async () => {
    const id = await shared();
    const owners = await turn(id, 'The owner asks a long enough question', OWNER);
    const r = await related(id, { turn_seq: owners });
    expect([r.status, r.errors[0].code]).toEqual([422, 'not_own_message']);
    const agents = await turn(id, 'The agent answers at some length', EDITOR, { author: 'agent:gpt-4.1' });
    expect((await related(id, { turn_seq: agents })).status).toBe(422);
    expect((await related(id, { turn_seq: 99 })).status).toBe(404);
    expect(fake.panels.requests).toHaveLength(0);
  });

  it('16 WS-398 a message under four words is skipped: no lookup, empty lists', async () => {
    const id = await unfiled();
    const seq = await turn(id, 'Lease renewal — thoughts?');
    const r = await related(id, { turn_seq: seq });
    expect(r.data).toEqual({ turn_seq: seq, skipped: 'too_short', degraded: false, claims: [], records: [] });
    expect(fake.panels.requests).toHaveLength(0);
    const four = await turn(id, 'Lease renewal any thoughts?');
    expect((await related(id, { turn_seq: four })).data.skipped).toBeNull();
  });

  it('16 WS-399 a redacted message is skipped: no lookup, empty lists', async () => {
    const id = await unfiled();
    const seq = await turn(id, 'My salary is something I should not have written here');
    const req = await h.call('POST', `/v1/conversations/${id}/turns/${seq}/redaction`, EDITOR, {
      data: { reason: 'Personal' },
    });
    h.expectStatus('redaction', req, 201);
    const ok = await h.call('POST', `/v1/redactions/${req.data.id}/approve`, EDITOR, {
      data: { approval_key: REDACTION_KEY },
    });
    h.expectStatus('approve', ok, 200);
    const r = await related(id, { turn_seq: seq });
    expect(r.data).toEqual({ turn_seq: seq, skipped: 'redacted', degraded: false, claims: [], records: [] });
    expect(fake.panels.requests).toHaveLength(0);
  });

  it('16 WS-400 an unreachable, slow or failing service gives 200 degraded: true with empty lists', async () => {
    const id = await unfiled();
    const seq = await turn(id, 'What did the auditors say about March?');
    for (const failure of [
      { kind: 'fail', status: 503 },
      { kind: 'slow', ms: TIMEOUT_MS * 3 },
      { kind: 'nonsense' },
    ] as const) {
      fake.panels.failure = failure;
      const r = await related(id, { turn_seq: seq });
      expect(r.status).toBe(200);
      expect(r.data).toEqual({ turn_seq: seq, skipped: null, degraded: true, claims: [], records: [] });
    }
  });

  it('16 WS-401 the related panel writes nothing: no row and no event', async () => {
    const id = await shared();
    const seq = await turn(id, 'What did we decide about the lease renewal?');
    const before = await h.state();
    expect((await related(id, { turn_seq: seq })).status).toBe(200);
    fake.panels.failure = { kind: 'fail', status: 500 };
    expect((await related(id, { turn_seq: seq })).status).toBe(200);
    expect(await h.state()).toEqual(before);
  });

  it('16 WS-402 actions record opened, not_relevant or asked; any other value is refused', async () => {
    const id = await shared();
    const seq = await turn(id, 'What did we decide about the lease renewal?');
    const url = `/v1/conversations/${id}/related/actions`;
    for (const action of ['opened', 'not_relevant', 'asked']) {
      const r = await h.call('POST', url, EDITOR, { data: { turn_seq: seq, item_id: 'r-1', action } });
      expect(r.status).toBe(201);
      expect(r.data).toMatchObject({ conversation_id: id, turn_seq: seq, item_id: 'r-1', action, actor: fid(EDITOR) });
    }
    const rows = await h.db.selectFrom('related_actions').select('action').where('conversation_id', '=', id).execute();
    expect(rows.map((r) => r.action).sort()).toEqual(['asked', 'not_relevant', 'opened']);
    const before = await h.state();
    const bad = await h.call('POST', url, EDITOR, { data: { turn_seq: seq, item_id: 'r-1', action: 'liked' } });
    expect([bad.status, bad.errors[0].code]).toEqual([422, 'validation_failed']);
    const others = await turn(id, 'The owner asks a long enough question', OWNER);
    const notMine = await h.call('POST', url, EDITOR, { data: { turn_seq: others, item_id: 'r-1', action: 'opened' } });
    expect([notMine.status, notMine.errors[0].code]).toEqual([422, 'not_own_message']);
    const after = await h.state();
    // Only the owner's turn (and its event, activity row and key) is new; no action was recorded.
    expect(after.related_actions).toEqual(before.related_actions);
    const recorded = (await h.events('conversation.related_action_recorded'))
      .map((e) => (e.payload as { data: Record<string, unknown> }).data)
      .filter((d) => d.conversationId === id);
    expect(recorded.map((d) => d.action)).toEqual(['opened', 'not_relevant', 'asked']);
  });
});
