import { type App, devFid } from '@platform/kit';
import { injectJson } from '@platform/kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeRequest, ScriptedReply } from '../../broker/test/fakes/providers.ts';
import { SERVICE_TOKEN as BROKER_TOKEN } from '../../broker/test/harness.ts';
import { type RelayHarness, relayHarness, SERVICE_HEADERS } from '../../broker/test/relay-setup.ts';
import {
  SERVICE_TOKEN as WORKSPACE_TOKEN,
  type Harness as WorkspaceHarness,
  harness as workspaceHarness,
} from '../../workspace/test/harness.ts';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { httpBroker } from '../src/clients/broker.ts';
import { httpWorkspace } from '../src/clients/workspace.ts';
import { mailDomainOf } from '../src/start.ts';
import { writeRevisionsAlone } from '../src/store/briefs.ts';
import { ADMIN, type Harness, harness, OWNER } from './harness.ts';

/**
 * Daily briefs (AGT-261..AGT-282) end to end: the agents app reads the real workspace app (on a
 * port, through the service token on the person's behalf) and calls the real broker app, whose
 * fake provider is scripted per test.
 */

const SCHEDULER = 'briefs-test-scheduler-token';
const ANA = 'ana@briefs.test';
const BO = 'bo@briefs.test';
const CY = 'cy@briefs.test';
const RECIPIENTS = [ANA, BO, CY];
// 03:00Z on 26 November is still the 25th in New York (AGT-268).
const NOW = '2026-11-26T03:00:00Z';
const TODAY = '2026-11-25';

let ws: WorkspaceHarness;
let broker: RelayHarness;
let h: Harness;
let wsUrl: string;

/** The facts the job sent for a person: the ids a reply may cite. */
function factsOf(req: FakeRequest): { person: string; ids: string[] } {
  const user = req.json.messages?.find((m: { role: string }) => m.role === 'user')?.content ?? '{}';
  const parsed = JSON.parse(user) as { person: string; data: { id: string }[] };
  return { person: parsed.person, ids: parsed.data.map((d) => d.id) };
}

/** A reply citing the person's first fact, and one invented id code must drop. */
const goodReply = (req: FakeRequest, headline = 'Ship the plan today'): ScriptedReply => {
  const { ids } = factsOf(req);
  return {
    text: JSON.stringify({
      headline,
      items: [
        ...(ids[0] ? [{ source: ids[0], text: 'Finish the plan review' }] : []),
        { source: 'task:00000000-0000-0000-0000-000000000000', text: 'An invented task' },
      ],
    }),
  };
};

const chatCalls = () => broker.fake.requests.filter((r) => r.path === '/v1/chat/completions');
const speechCalls = () => broker.fake.requests.filter((r) => r.path === '/v1/audio/speech');

const job = (query = '', token: string | null = SCHEDULER) =>
  h.call(
    'POST',
    `/internal/jobs/daily-briefs${query ? `?${query}` : ''}`,
    { headers: token ? { 'x-platform-scheduler-token': token } : {} },
    undefined,
    null,
  );

const rows = (recipient: string, date = TODAY) =>
  h.db
    .selectFrom('briefs')
    .selectAll()
    .where('recipient', '=', recipient)
    .where('brief_date', '=', date)
    .orderBy('revision')
    .execute();

const errorCodes = (r: { body: unknown }) =>
  ((r.body as { payload?: { errors?: { code: string }[] } }).payload?.errors ?? []).map((e) => e.code);

beforeAll(async () => {
  ws = await workspaceHarness({ now: '2026-11-24T15:00:00Z' });
  await ws.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `http://127.0.0.1:${(ws.app.server.address() as { port: number }).port}`;
  // Ana's workspace: a project of hers, a task assigned to her, a meeting yesterday.
  const p = await ws.project({ name: 'Harbor tower' }, ANA);
  await ws.task(p.id, { title: 'Review the plan', assignee: devFid(ANA) }, ANA);
  const m = await ws.call('POST', '/v1/meetings', ANA, {
    data: { source: 'zoom', title: 'Design sync', project_id: p.id, participants: [ANA] },
  });
  ws.expectStatus('meeting', m, 201);
  broker = await relayHarness();
  h = await harness({
    now: NOW,
    env: { SCHEDULER_TOKEN: SCHEDULER },
    app: {
      schedulerToken: SCHEDULER,
      broker: httpBroker({ baseUrl: broker.url, serviceToken: BROKER_TOKEN, timeoutMs: 10_000 }),
      workspace: httpWorkspace({ baseUrl: wsUrl, serviceToken: WORKSPACE_TOKEN, timeoutMs: 10_000 }),
      briefs: { recipients: RECIPIENTS, model: 'gpt-4.1-mini', concurrency: 2 },
    },
  });
}, 120_000);

afterAll(async () => {
  await h?.close_();
  await broker?.close();
  ws.app.server.closeAllConnections();
  await ws?.close_();
});

beforeEach(async () => {
  broker.fake.script(goodReply);
  broker.fake.requests.length = 0;
  h.setNow(NOW);
  await h.db.deleteFrom('brief_feedback').execute();
  await h.db.deleteFrom('briefs').execute();
});

describe('the daily-briefs job', () => {
  it('20 AGT-261 AGT-262 AGT-268 writes and stores today’s (New York) brief per recipient from their own workspace data and one model call; no email', async () => {
    const r = await job();
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ date: TODAY, written: [ANA, BO, CY].sort(), kept: [], failed: [] });
    for (const who of RECIPIENTS) expect((await rows(who)).map((b) => b.status)).toEqual(['published']);
    // One model call per recipient, each on the person's behalf with only their own facts.
    expect(chatCalls()).toHaveLength(3);
    const ana = chatCalls().find((c) => factsOf(c).person === ANA);
    expect(ana && factsOf(ana).ids.some((id) => id.startsWith('task:'))).toBe(true);
    expect(ana && factsOf(ana).ids.some((id) => id.startsWith('meeting:'))).toBe(true);
    expect(factsOf(chatCalls().find((c) => factsOf(c).person === BO) as FakeRequest).ids).toEqual([]);
    // The reply is checked in code: the invented task is dropped, the cited one kept.
    const own = await h.call('GET', '/v1/briefs', ANA);
    expect(own.status).toBe(200);
    expect(own.data).toMatchObject({ recipient: ANA, date: TODAY, status: 'published', revision: 1 });
    expect((own.data as { text: string }).text).toBe('Ship the plan today\n\n- Finish the plan review');
    // No email: nothing but the workspace reads and the broker call left the service, and no
    // event (the mail path) was written.
    expect(broker.fake.requests.every((q) => q.path === '/v1/chat/completions')).toBe(true);
    expect(await h.events()).toEqual([]);
  });

  it('20 AGT-263 AGT-264 email limits the job to one person and date writes that day', async () => {
    const r = await job(`email=${encodeURIComponent(BO.toUpperCase())}&date=2026-11-20`);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ date: '2026-11-20', written: [BO] });
    expect(await rows(BO, '2026-11-20')).toHaveLength(1);
    expect(await rows(ANA, '2026-11-20')).toHaveLength(0);
    expect(await rows(BO)).toHaveLength(0);
    expect(chatCalls()).toHaveLength(1);
  });

  it('20 AGT-265 regenerate=true writes a new revision and supersedes the old', async () => {
    await job(`email=${ANA}`);
    broker.fake.script((req) => goodReply(req, 'A second look at the day'));
    const again = await job(`email=${ANA}`);
    expect(again.data).toMatchObject({ written: [], kept: [ANA] });
    expect(chatCalls()).toHaveLength(1);
    const r = await job(`email=${ANA}&regenerate=true`);
    expect(r.data).toMatchObject({ written: [ANA] });
    const [old, current] = await rows(ANA);
    expect(old).toMatchObject({ revision: 1, status: 'superseded', superseded_by: current?.id });
    expect(current).toMatchObject({ revision: 2, status: 'published' });
    const own = await h.call('GET', '/v1/briefs', ANA);
    expect(own.data).toMatchObject({ revision: 2, text: expect.stringMatching(/^A second look at the day/) });
  });

  it('20 AGT-266 AGT-273 AGT-272 one failing recipient gets a draft and the job answers 503 naming them; the draft shows only with drafts=true', async () => {
    broker.fake.script((req) =>
      factsOf(req).person === BO ? { failure: { status: 500, body: '{"error":"boom"}' } } : goodReply(req),
    );
    const r = await job();
    expect(r.status).toBe(503);
    expect(errorCodes(r)).toContain('briefs_incomplete');
    expect(JSON.stringify(r.body)).toContain(BO);
    expect(JSON.stringify(r.body)).not.toContain(`${ANA} (`);
    expect((await rows(BO)).map((b) => [b.status, b.failure])).toEqual([['draft', 'broker_unavailable']]);
    expect((await rows(ANA)).map((b) => b.status)).toEqual(['published']);
    // Hidden without drafts=true: Bo himself and an admin naming him read no brief.
    expect((await h.call('GET', '/v1/briefs', BO)).status).toBe(404);
    expect((await h.call('GET', `/v1/briefs?recipient=${BO}`, ADMIN)).status).toBe(404);
    const all = await h.call('GET', '/v1/briefs?all=true', ADMIN);
    expect((all.data as { recipient: string }[]).map((b) => b.recipient)).toEqual([ANA, CY].sort());
    // With drafts=true an admin reads it.
    const draft = await h.call('GET', `/v1/briefs?recipient=${BO}&drafts=true`, ADMIN);
    expect(draft.status).toBe(200);
    expect(draft.data).toMatchObject({ recipient: BO, status: 'draft', revision: 1 });
    expect((draft.data as { text: string }).text).toMatch(/^Not written: broker_unavailable\./);
    const allDrafts = await h.call('GET', '/v1/briefs?all=true&drafts=true', ADMIN);
    expect((allDrafts.data as { recipient: string }[]).map((b) => b.recipient)).toEqual(RECIPIENTS.slice().sort());
    // The next run tries Bo again (a draft is not kept) and supersedes his draft.
    broker.fake.script(goodReply);
    const retry = await job();
    expect(retry.status).toBe(200);
    expect(retry.data).toMatchObject({ written: [BO], kept: [ANA, CY].sort() });
    expect((await rows(BO)).map((b) => b.status)).toEqual(['superseded', 'published']);
  });

  it('20 AGT-266 a reply that is not the asked JSON, or a workspace that fails, gives a draft and 503', async () => {
    broker.fake.script(() => ({ text: 'Here is your brief: all good!' }));
    const bad = await job(`email=${CY}`);
    expect(bad.status).toBe(503);
    expect((await rows(CY)).map((b) => b.failure)).toEqual(['model_reply_invalid']);
    broker.fake.script(() => ({ text: JSON.stringify({ items: [] }) }));
    expect((await job(`email=${CY}`)).status).toBe(503);
    expect((await rows(CY)).map((b) => b.status)).toEqual(['superseded', 'draft']);

    // Workspace down: the same service on the same database with a reader whose address answers
    // nothing; no model call is made.
    await h.db.deleteFrom('briefs').execute();
    const down = (await buildApp({
      database: h.database,
      authenticator: agentsAuthenticator(h.config),
      callers: callerPolicy(h.config),
      mailDomain: mailDomainOf(h.config),
      clock: () => h.now(),
      logLevel: 'silent',
      schedulerToken: SCHEDULER,
      broker: httpBroker({ baseUrl: broker.url, serviceToken: BROKER_TOKEN, timeoutMs: 10_000 }),
      workspace: httpWorkspace({ baseUrl: 'http://127.0.0.1:9', serviceToken: WORKSPACE_TOKEN, timeoutMs: 2_000 }),
      briefs: { recipients: [ANA], model: 'gpt-4.1-mini', concurrency: 1 },
    })) as App;
    try {
      broker.fake.requests.length = 0;
      const r = await injectJson(down, 'POST', '/internal/jobs/daily-briefs', {
        headers: { 'x-platform-scheduler-token': SCHEDULER },
      });
      expect(r.status).toBe(503);
      const stored = await h.db.selectFrom('briefs').selectAll().execute();
      expect(stored.map((b) => [b.recipient, b.status, b.failure])).toEqual([[ANA, 'draft', 'workspace_unavailable']]);
      expect(chatCalls()).toHaveLength(0);
    } finally {
      await down.close();
    }
  });

  it('20 AGT-264 AGT-263 a date that is no calendar day, or an email not among the recipients, is 422 and nothing is written', async () => {
    for (const q of ['date=2026-02-30', 'date=26-11-2026', 'email=stranger@briefs.test']) {
      const before = await h.state();
      const r = await job(q);
      expect(r.status).toBe(422);
      expect(await h.state()).toEqual(before);
    }
    expect(chatCalls()).toHaveLength(0);
  });

  it('20 AGT-261 only the scheduler runs the job: no token or a wrong one is 401, a person is refused', async () => {
    expect((await job('', null)).status).toBe(401);
    expect((await job('', 'wrong')).status).toBe(401);
    const admin = await h.call('POST', '/internal/jobs/daily-briefs', ADMIN, undefined, null);
    expect([401, 403]).toContain(admin.status);
    expect(await h.db.selectFrom('briefs').selectAll().execute()).toEqual([]);
  });
});

describe('GET and POST /v1/briefs', () => {
  it('20 AGT-267 AGT-269 AGT-270 AGT-271 own brief; recipient and all=true for ReadAnyBrief only', async () => {
    await job();
    const own = await h.call('GET', `/v1/briefs?date=${TODAY}`, BO);
    expect(own.data).toMatchObject({ recipient: BO });
    const named = await h.call('GET', `/v1/briefs?recipient=${ANA}`, ADMIN);
    expect(named.data).toMatchObject({ recipient: ANA, status: 'published' });
    const all = await h.call('GET', '/v1/briefs?all=true', ADMIN);
    expect((all.data as { recipient: string }[]).map((b) => b.recipient)).toEqual(RECIPIENTS.slice().sort());
    for (const url of [`/v1/briefs?recipient=${ANA}`, '/v1/briefs?all=true']) {
      const r = await h.call('GET', url, BO);
      expect(r.status).toBe(403);
      expect(errorCodes(r)).toEqual(['read_any_brief_required']);
      expect(JSON.stringify(r.body)).not.toContain('Finish the plan review');
    }
    // Naming oneself needs nothing more.
    expect((await h.call('GET', `/v1/briefs?recipient=${BO}`, BO)).status).toBe(200);
  });

  it('20 AGT-274 drafts=true without ReadAnyBrief is refused and returns no draft', async () => {
    broker.fake.script(() => ({ failure: { status: 500 } }));
    await job(`email=${BO}`);
    const r = await h.call('GET', '/v1/briefs?drafts=true', BO);
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain('Not written');
  });

  it('20 AGT-275 a GET for a day with no brief stores nothing', async () => {
    const before = await h.state();
    expect((await h.call('GET', '/v1/briefs?date=2026-01-05', ANA)).status).toBe(404);
    expect((await h.call('GET', '/v1/briefs?all=true&date=2026-01-05', ADMIN)).data).toEqual([]);
    expect(await h.state()).toEqual(before);
    expect(chatCalls()).toHaveLength(0);
  });

  it('20 AGT-276 AGT-277 POST stores pasted text as the person’s brief; without WriteBrief it is refused and nothing stored', async () => {
    const pasted = await h.call('POST', '/v1/briefs', ADMIN, {
      data: { recipient: ANA, text: 'Pasted: call the crane vendor' },
    });
    expect(pasted.status).toBe(201);
    expect(pasted.data).toMatchObject({
      recipient: ANA,
      date: TODAY,
      status: 'published',
      origin: 'pasted',
      revision: 1,
    });
    const own = await h.call('GET', '/v1/briefs', ANA);
    expect(own.data).toMatchObject({ text: 'Pasted: call the crane vendor' });
    const before = await h.state();
    const refused = await h.call('POST', '/v1/briefs', OWNER, { data: { recipient: ANA, text: 'Mine now' } });
    expect(refused.status).toBe(403);
    const self = await h.call('POST', '/v1/briefs', ANA, { data: { recipient: ANA, text: 'Mine now' } });
    expect(self.status).toBe(403);
    expect(await h.state()).toEqual(before);
    const bad = await h.call('POST', '/v1/briefs', ADMIN, { data: { recipient: ANA, date: '2026-13-01', text: 'x' } });
    expect(bad.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('20 AGT-278 AGT-279 the morning job keeps a pasted brief; regenerate=true supersedes it with a new revision', async () => {
    await h.call('POST', '/v1/briefs', ADMIN, { data: { recipient: CY, text: 'Pasted for Cy' } });
    const kept = await job(`email=${CY}`);
    expect(kept.data).toMatchObject({ kept: [CY], written: [] });
    expect(chatCalls()).toHaveLength(0);
    expect((await h.call('GET', '/v1/briefs', CY)).data).toMatchObject({ text: 'Pasted for Cy', revision: 1 });
    const replaced = await job(`email=${CY}&regenerate=true`);
    expect(replaced.data).toMatchObject({ written: [CY] });
    expect((await rows(CY)).map((b) => [b.revision, b.status, b.origin])).toEqual([
      [1, 'superseded', 'pasted'],
      [2, 'published', 'job'],
    ]);
  });
});

describe('feedback and speech', () => {
  it('20 AGT-280 each of the six kinds is stored against the brief; another person’s brief is 404', async () => {
    await job(`email=${ANA}`);
    const brief = (await h.call('GET', '/v1/briefs', ANA)).data as { id: string };
    const kinds = ['wrong_scope', 'immaterial', 'already_resolved', 'missing', 'ungrounded', 'useful'];
    for (const kind of kinds) {
      const r = await h.call('POST', '/v1/briefs/feedback', ANA, { data: { brief_id: brief.id, kind } });
      expect(r.status).toBe(201);
      expect(r.data).toMatchObject({ brief_id: brief.id, kind });
    }
    const stored = await h.db.selectFrom('brief_feedback').select(['kind', 'brief_id']).execute();
    expect(stored.map((f) => f.kind).sort()).toEqual(kinds.slice().sort());
    expect(new Set(stored.map((f) => f.brief_id))).toEqual(new Set([brief.id]));
    const before = await h.state();
    const other = await h.call('POST', '/v1/briefs/feedback', BO, { data: { brief_id: brief.id, kind: 'useful' } });
    expect(other.status).toBe(404);
    const unknown = await h.call('POST', '/v1/briefs/feedback', ANA, { data: { brief_id: brief.id, kind: 'great' } });
    expect(unknown.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('20 AGT-281 AGT-282 speech answers the broker’s MP3 of a passage of one’s own brief unchanged, not an envelope; other text is 422 and nothing is relayed', async () => {
    await job(`email=${ANA}`);
    const passage = 'Finish the plan review';
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/briefs/speech',
      headers: { 'x-dev-principal': ANA, 'content-type': 'application/json' },
      payload: JSON.stringify({ data: { text: passage } }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(speechCalls()).toHaveLength(1);
    expect(speechCalls()[0]?.json.input).toBe(passage);
    // The same passage straight through the broker's relay: the very same bytes.
    const direct = await broker.post(
      '/v1/relay/speech',
      { input: passage },
      { ...SERVICE_HEADERS, 'x-platform-on-behalf-of': ANA },
    );
    expect(res.rawPayload.equals(direct.bytes)).toBe(true);
    expect(res.rawPayload.subarray(0, 1).toString()).not.toBe('{');

    broker.fake.requests.length = 0;
    for (const [who, text] of [
      [ANA, 'Something never written'],
      [BO, passage],
    ] as const) {
      const r = await h.call('POST', '/v1/briefs/speech', who, { data: { text } }, null);
      expect(r.status).toBe(422);
      expect(errorCodes(r)).toEqual(['passage_not_in_brief']);
    }
    expect(speechCalls()).toHaveLength(0);
  });
});

describe('the job’s batched writes', () => {
  it('20 AGT-265 AGT-278 AGT-279 AGT-266 several recipients’ revisions in one write: each day decided as if written alone', async () => {
    const at = new Date(NOW);
    const base = { date: TODAY, origin: 'job' as const, writtenBy: 'scheduler', now: at };
    const pub = (recipient: string, text: string, keepPublished = false) => ({
      ...base,
      recipient,
      text,
      status: 'published' as const,
      model: 'gpt-4.1-mini',
      failure: null,
      keepPublished,
    });
    const draft = (recipient: string) => ({
      ...base,
      recipient,
      text: 'Not written',
      status: 'draft' as const,
      model: null,
      failure: 'broker_unavailable',
    });
    // Ana: published, then a draft; Bo: published; Cy: nothing yet.
    await writeRevisionsAlone(h.db, [pub(ANA, 'Ana one'), pub(BO, 'Bo one')]);
    await writeRevisionsAlone(h.db, [draft(ANA)]);
    const out = await writeRevisionsAlone(h.db, [pub(ANA, 'Ana two'), pub(BO, 'Bo kept?', true), draft(CY)]);
    expect(out.map((w) => [w.outcome, w.brief.recipient, w.brief.revision, w.brief.status])).toEqual([
      ['written', ANA, 3, 'published'],
      ['kept', BO, 1, 'published'],
      ['written', CY, 1, 'draft'],
    ]);
    // Ana's new brief superseded both her published brief and her draft; Bo's was kept untouched.
    const ana = await rows(ANA);
    expect(ana.map((b) => [b.revision, b.status, b.superseded_by])).toEqual([
      [1, 'superseded', out[0]?.brief.id],
      [2, 'superseded', out[0]?.brief.id],
      [3, 'published', null],
    ]);
    expect((await rows(BO)).map((b) => [b.text, b.status])).toEqual([['Bo one', 'published']]);
    // A draft supersedes only an earlier draft: the published brief stays readable.
    await writeRevisionsAlone(h.db, [draft(ANA), draft(CY)]);
    expect((await rows(ANA)).map((b) => b.status)).toEqual(['superseded', 'superseded', 'published', 'draft']);
    expect((await rows(CY)).map((b) => b.status)).toEqual(['superseded', 'draft']);
    // A recipient day named twice is refused whole: nothing written.
    await expect(writeRevisionsAlone(h.db, [pub(BO, 'x'), pub(BO, 'y')])).rejects.toThrow(/named twice/);
    expect(await rows(BO)).toHaveLength(1);
  });

  it('20 AGT-265 AGT-276 AGT-279 concurrent writers of the same days (job batches in opposite orders, pastes): each revision numbered once, one published brief a day', async () => {
    const at = new Date(NOW);
    const pub = (recipient: string, text: string, origin: 'job' | 'pasted') => ({
      recipient,
      date: TODAY,
      text,
      status: 'published' as const,
      origin,
      writtenBy: origin === 'job' ? 'scheduler' : 'admin',
      model: origin === 'job' ? 'gpt-4.1-mini' : null,
      failure: null,
      now: at,
    });
    const people = [ANA, BO, CY];
    // Batches naming the days in opposite orders wait on each other's day locks, never in a cycle.
    const writers = Array.from({ length: 6 }, (_, i) =>
      writeRevisionsAlone(
        h.db,
        (i % 2 === 0 ? people : [...people].reverse()).map((p) => pub(p, `job ${i}`, 'job')),
      ),
    );
    const pastes = people.map((p) => writeRevisionsAlone(h.db, [pub(p, `pasted for ${p}`, 'pasted')]));
    await Promise.all([...writers, ...pastes]);
    for (const p of people) {
      const day = await rows(p);
      expect(day.map((b) => b.revision)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(day.filter((b) => b.status === 'published')).toHaveLength(1);
      expect(day.filter((b) => b.status === 'superseded').every((b) => b.superseded_by !== null)).toBe(true);
    }
  });
});
