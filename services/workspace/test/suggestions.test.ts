import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpIntelligence } from '../src/clients/intelligence.ts';
import type { Conversation } from '../src/schemas/conversations.ts';
import { type FakeIntelligence, startFakeIntelligence } from './fakes/intelligence.ts';
import { fid, type Harness, harness, OUTSIDER, SERVICE_TOKEN, tag, VIEWER } from './harness.ts';

/**
 * Where an unfiled conversation might belong (spec 2): the workspace asks the intelligence service
 * (a local fake speaking the contract in docs/decisions.md) and never answers 5xx for it.
 */
// Generous for a loaded machine, yet well below the slow fake's delay.
const TIMEOUT_MS = 1_500;
let h: Harness;
let fake: FakeIntelligence;
beforeAll(async () => {
  fake = await startFakeIntelligence(SERVICE_TOKEN);
  h = await harness({
    app: {
      intelligence: new HttpIntelligence({ baseUrl: fake.url, serviceToken: SERVICE_TOKEN, timeoutMs: TIMEOUT_MS }),
    },
  });
});
afterAll(async () => {
  await h.close_();
  await fake.close();
});
beforeEach(() => {
  fake.mode = {
    kind: 'answer',
    rank: (req) =>
      req.candidates.map((c, i) => ({ project_id: c.project_id, score: 0.9 - i * 0.1, reason: `about ${c.name}` })),
  };
});

/** A person of their own, with projects where they are editor, owner or viewer. */
async function person() {
  const who = `suggest-${tag()}@ws.test`;
  const editorOf = await h.project({ name: `Leases ${tag()}` });
  await h.member(editorOf.id, who, 'editor');
  const ownerOf = await h.project({ name: `Budgets ${tag()}` }, who);
  const viewerOf = await h.project({ name: `Audits ${tag()}` });
  await h.member(viewerOf.id, who, 'viewer');
  const r = await h.call('POST', '/v1/conversations', who, { data: { title: 'Where does this go?' } });
  h.expectStatus('conversation', r, 201);
  const c = r.data as Conversation;
  h.expectStatus(
    'turn',
    await h.call('POST', `/v1/conversations/${c.id}/turns`, who, { data: { text: 'The lease renewal for unit 4' } }),
    201,
  );
  return { who, c, editorOf, ownerOf, viewerOf };
}
const suggestions = (id: string, as: string) => h.call('GET', `/v1/conversations/${id}/suggestions`, as);

describe('suggestions', () => {
  it('16 WS-367 GET .../suggestions lists proposed projects from the intelligence service', async () => {
    const { who, c, editorOf, ownerOf } = await person();
    const before = fake.requests.length;
    const r = await suggestions(c.id, who);
    expect(r.status).toBe(200);
    expect(r.data.degraded).toBe(false);
    expect(r.data.conversation_id).toBe(c.id);
    expect(r.data.suggestions.map((s: { project_id: string }) => s.project_id).sort()).toEqual(
      [editorOf.id, ownerOf.id].sort(),
    );
    expect(r.data.suggestions[0]).toMatchObject({
      score: 0.9,
      project_name: expect.any(String),
      reason: expect.stringMatching(/^about /),
    });
    // What the service was sent: the candidates (where the person may file it) and the latest utterances.
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['x-platform-on-behalf-of']).toBe(who);
    expect(sent[0]?.body).toMatchObject({
      conversation_id: c.id,
      title: 'Where does this go?',
      utterances: [{ seq: 1, author: fid(who), text: 'The lease renewal for unit 4' }],
      limit: 10,
    });
    expect(sent[0]?.body.candidates.map((x) => x.project_id).sort()).toEqual([editorOf.id, ownerOf.id].sort());
  });

  it('16 WS-367 a project the person cannot file onto is never proposed, whatever the service says', async () => {
    const { who, c, viewerOf, editorOf } = await person();
    const stranger = await h.project({ name: `Hidden ${tag()}` });
    fake.mode = {
      kind: 'answer',
      rank: () => [
        { project_id: stranger.id, score: 1 },
        { project_id: viewerOf.id, score: 0.95 },
        { project_id: editorOf.id, score: 0.5 },
        { project_id: editorOf.id, score: 0.4 },
      ],
    };
    const r = await suggestions(c.id, who);
    expect(r.data.suggestions.map((s: { project_id: string }) => s.project_id)).toEqual([editorOf.id]);
    expect(JSON.stringify(r.data)).not.toContain(stranger.name);
    // Only its starter reads an unfiled conversation's suggestions.
    expect((await suggestions(c.id, OUTSIDER)).status).toBe(404);
  });

  it('16 WS-368 POST .../suggestions/{projectId}/resolve settles the suggestion naming that project', async () => {
    const { who, c, editorOf, ownerOf, viewerOf } = await person();
    const dismissed = await h.call('POST', `/v1/conversations/${c.id}/suggestions/${ownerOf.id}/resolve`, who, {
      data: { decision: 'dismiss' },
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.data).toMatchObject({
      conversation_id: c.id,
      project_id: ownerOf.id,
      decision: 'dismiss',
      resolved_by: fid(who),
    });
    expect('project_id' in dismissed.data.conversation).toBe(false);
    // A dismissed project is not proposed again.
    expect((await suggestions(c.id, who)).data.suggestions.map((s: { project_id: string }) => s.project_id)).toEqual([
      editorOf.id,
    ]);
    // Accepting where the person is only a viewer: 403, nothing written.
    const before = await h.state();
    const refused = await h.call('POST', `/v1/conversations/${c.id}/suggestions/${viewerOf.id}/resolve`, who, {
      data: { decision: 'accept' },
    });
    expect(refused.status).toBe(403);
    expect(await h.state()).toEqual(before);
    // Accepting files it there; a filed conversation has no more suggestions.
    const accepted = await h.call('POST', `/v1/conversations/${c.id}/suggestions/${editorOf.id}/resolve`, who, {
      data: { decision: 'accept' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.data.conversation.project_id).toBe(editorOf.id);
    expect((await h.call('GET', `/v1/conversations/${c.id}`, who)).data.project_id).toBe(editorOf.id);
    const asked = fake.requests.length;
    expect((await suggestions(c.id, who)).data).toEqual({ conversation_id: c.id, degraded: false, suggestions: [] });
    expect(fake.requests.length).toBe(asked);
    const events = (await h.events('conversation.suggestion_resolved')).filter(
      (e) => e.payload.data.conversationId === c.id,
    );
    expect(events.map((e) => e.payload.data.decision)).toEqual(['dismiss', 'accept']);
    expect(
      (
        await h.call('POST', `/v1/conversations/${c.id}/suggestions/${editorOf.id}/resolve`, who, {
          data: { decision: 'maybe' },
        })
      ).status,
    ).toBe(422);
  });

  it('16 WS-367 the intelligence service down gives a degraded answer, never 5xx', async () => {
    const { who, c } = await person();
    for (const status of [500, 503, 401, 404]) {
      fake.mode = { kind: 'fail', status };
      const r = await suggestions(c.id, who);
      expect(r.status).toBe(200);
      expect(r.data).toEqual({ conversation_id: c.id, degraded: true, suggestions: [] });
    }
    fake.mode = { kind: 'nonsense' };
    expect((await suggestions(c.id, who)).data.degraded).toBe(true);
  });

  it('16 WS-367 the intelligence service slow gives a degraded answer within the bounded time, never 5xx', async () => {
    const { who, c } = await person();
    fake.mode = { kind: 'slow', ms: 10_000 };
    const t0 = Date.now();
    const r = await suggestions(c.id, who);
    const took = Date.now() - t0;
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ conversation_id: c.id, degraded: true, suggestions: [] });
    expect(took).toBeLessThan(8_000);
  });

  it('16 WS-367 the intelligence service unreachable or unset gives a degraded answer, never 5xx', async () => {
    const { who, c, editorOf } = await person();
    const gone = await startFakeIntelligence(SERVICE_TOKEN);
    await gone.close();
    const unreachable = new HttpIntelligence({ baseUrl: gone.url, serviceToken: SERVICE_TOKEN, timeoutMs: TIMEOUT_MS });
    const answer = await unreachable.suggestProjects(
      {
        conversation_id: c.id,
        title: 't',
        utterances: [],
        candidates: [{ project_id: editorOf.id, name: 'n', description: '' }],
        limit: 10,
      },
      who,
    );
    expect(answer).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(
      await new HttpIntelligence({}).suggestProjects(
        { conversation_id: c.id, title: 't', utterances: [], candidates: [], limit: 1 },
        who,
      ),
    ).toEqual({
      ok: false,
      reason: 'unconfigured',
    });
    // The viewer-only person has nowhere to file: an empty, not degraded, answer without asking.
    const r = await h.call('POST', '/v1/conversations', VIEWER, { data: {} });
    const asked = fake.requests.length;
    expect((await suggestions(r.data.id, VIEWER)).data).toEqual({
      conversation_id: r.data.id,
      degraded: false,
      suggestions: [],
    });
    expect(fake.requests.length).toBe(asked);
  });
});
