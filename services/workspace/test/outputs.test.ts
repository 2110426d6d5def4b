import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INLINE_MAX_BYTES } from '../src/domain/outputs.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, tag, VIEWER } from './harness.ts';

/**
 * Saved outputs (spec 2, "Conversation, turn, output"; rules WS-375…WS-385, WS-271): inline saves
 * on a conversation's project or the project itself, versions by slug and sha256, the 256 KiB
 * limit, the scan for credentials and tool logs, lists and reads. The two-step upload path
 * against the real documents service is in outputs-upload.test.ts.
 */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** A conversation filed on a fresh team project, started by EDITOR. */
async function filed() {
  const p = await h.team();
  const r = await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: { title: `Conv ${tag()}` } });
  h.expectStatus('conversation', r, 201);
  return { project: p, conversation: r.data as { id: string } };
}

const save = (conversationId: string, data: Record<string, unknown>, as = EDITOR, key?: string) =>
  h.call('POST', `/v1/conversations/${conversationId}/outputs`, as, { data }, key);

const outputsOf = async (projectId: string) =>
  (
    await h.db.selectFrom('saved_outputs').selectAll().where('project_id', '=', projectId).orderBy('version').execute()
  ).map((r) => ({ version: Number(r.version), status: r.status, sha256: r.sha256 }));

describe('saving outputs inline', () => {
  it('16 WS-375 a save writes a row on the conversation’s project with slug, sha256, version 1 and status active', async () => {
    const { project, conversation } = await filed();
    const body = '# Board memo\n\nRevenue is up.\n';
    const r = await save(conversation.id, {
      slug: 'board-memo',
      body,
      title: ' Board memo ',
      content_type: 'text/markdown',
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: project.id,
      conversation_id: conversation.id,
      slug: 'board-memo',
      sha256: sha(body),
      version: 1,
      status: 'active',
      title: 'Board memo',
      content_type: 'text/markdown',
      size_bytes: Buffer.byteLength(body),
      document_id: null,
      saved_by: fid(EDITOR),
      superseded_at: null,
    });
    const events = (await h.events('workspace.project.output_saved')).concat(await h.events('project.output_saved'));
    const mine = events
      .map((e) => (e.payload as { data: Record<string, unknown> }).data)
      .filter((d) => d.outputId === r.data.id);
    expect(mine).toEqual([
      {
        projectId: project.id,
        outputId: r.data.id,
        conversationId: conversation.id,
        version: 1,
        sha256: sha(body),
        supersededOutputId: null,
        actor: fid(EDITOR),
      },
    ]);
    const activity = await h.db.selectFrom('activity').selectAll().where('subject_id', '=', r.data.id).execute();
    expect(activity.map((a) => a.kind)).toEqual(['output.saved']);
  });

  it('16 WS-375 a retried save (same Idempotency-Key) writes one output', async () => {
    const { project, conversation } = await filed();
    const key = randomUUID();
    const first = await save(conversation.id, { slug: 'retry', body: 'once' }, EDITOR, key);
    const again = await save(conversation.id, { slug: 'retry', body: 'once' }, EDITOR, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
    expect(await outputsOf(project.id)).toHaveLength(1);
  });

  it('16 WS-376 the same slug with the same sha256 is a no-op: 200 with the active row, no new row, no event', async () => {
    const { project, conversation } = await filed();
    const first = await save(conversation.id, { slug: 'plan', body: 'Same text' });
    const events = (await h.events()).length;
    const again = await save(conversation.id, { slug: 'plan', body: 'Same text', title: 'Another title' });
    expect(again.status).toBe(200);
    expect(again.data).toEqual(first.data);
    expect(await outputsOf(project.id)).toEqual([{ version: 1, status: 'active', sha256: sha('Same text') }]);
    expect((await h.events()).length).toBe(events);
  });

  it('16 WS-377 a new sha256 supersedes the active row and writes version N+1', async () => {
    const { project, conversation } = await filed();
    const v1 = await save(conversation.id, { slug: 'forecast', body: 'v1' });
    h.setNow('2025-06-16T16:00:00Z');
    const v2 = await save(conversation.id, { slug: 'forecast', body: 'v2' });
    h.setNow('2025-06-16T15:00:00Z');
    expect(v2.status).toBe(201);
    expect(v2.data).toMatchObject({ slug: 'forecast', version: 2, status: 'active', sha256: sha('v2') });
    const old = await h.call('GET', `/v1/outputs/${v1.data.id}`, VIEWER);
    expect(old.data).toMatchObject({ version: 1, status: 'superseded', superseded_at: '2025-06-16T16:00:00.000Z' });
    expect(await outputsOf(project.id)).toEqual([
      { version: 1, status: 'superseded', sha256: sha('v1') },
      { version: 2, status: 'active', sha256: sha('v2') },
    ]);
    const saved = (await h.events())
      .map((e) => (e.payload as { data: Record<string, unknown> }).data)
      .find((d) => d.outputId === v2.data.id);
    expect(saved).toMatchObject({ version: 2, supersededOutputId: v1.data.id });
    // Saving the first text again is a change too: version 3.
    const v3 = await save(conversation.id, { slug: 'forecast', body: 'v1' });
    expect(v3.data).toMatchObject({ version: 3, status: 'active' });
  });

  it('16 WS-377 twenty concurrent saves of one slug with different content give versions 1…20 and one active row', async () => {
    const { project, conversation } = await filed();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => save(conversation.id, { slug: 'race', body: `content ${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const rows = await outputsOf(project.id);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.status === 'active')).toHaveLength(1);
    expect(rows[19]?.status).toBe('active');
    expect(new Set(answers.map((a) => a.data.version)).size).toBe(20);
  });

  it('16 WS-377 concurrent saves through the project route and the conversation route share the slug’s versions', async () => {
    const { project, conversation } = await filed();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? save(conversation.id, { slug: 'shared', body: `c${i}` })
          : h.call('POST', `/v1/projects/${project.id}/outputs`, EDITOR, { data: { slug: 'shared', body: `p${i}` } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const rows = await outputsOf(project.id);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.status === 'active')).toHaveLength(1);
  });

  it('16 WS-378 an inline body of 256 KiB is accepted; one byte more is refused (413) with nothing written', async () => {
    const { project, conversation } = await filed();
    const exact = 'a'.repeat(INLINE_MAX_BYTES);
    const ok = await save(conversation.id, { slug: 'big', body: exact });
    expect(ok.status).toBe(201);
    expect(ok.data.size_bytes).toBe(256 * 1024);
    const before = await h.state();
    // Bytes count, not characters: 'é' is two bytes of UTF-8.
    const over = await save(conversation.id, { slug: 'big', body: `${'a'.repeat(INLINE_MAX_BYTES - 1)}é` });
    expect(over.status).toBe(413);
    expect(over.errors[0].code).toBe('inline_body_too_large');
    expect(over.errors[0].message).toContain('outputs/upload');
    expect(await h.state()).toEqual(before);
    expect(await outputsOf(project.id)).toHaveLength(1);
  });

  const CREDENTIALS: [string, string][] = [
    ['private_key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'],
    ['private_key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA'],
    ['aws_access_key_id', 'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE'],
    ['aws_secret_access_key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['bearer_token', 'curl -H "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789"'],
    ['api_key_sk', 'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345'],
    ['api_key_sk', 'key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz'],
    ['jwt', 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['github_token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789AB'],
    ['slack_token', 'xoxb-123456789012-abcdefghij'],
    ['google_api_key', 'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234'],
    [
      'storage_account_key',
      'DefaultEndpointsProtocol=https;AccountName=x;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
    ],
    ['password_in_url', 'DATABASE_URL=postgres://app:s3cret@db.internal:5432/main'],
  ];

  it.each(CREDENTIALS)(
    '16 WS-379 a body holding a credential (%s) is refused before any row is written',
    async (name, secret) => {
      const { conversation } = await filed();
      const before = await h.state();
      const r = await save(conversation.id, { slug: 'notes', body: `Intro line\n${secret}\nmore` });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'credential_in_output', value: { found: name, line: 2 } });
      // The answer names what was found, never the secret.
      expect(JSON.stringify(r.body)).not.toContain(secret.split('\n')[0]?.slice(-12));
      expect(await h.state()).toEqual(before);
    },
  );

  const TOOL_LOGS: string[] = [
    '<tool_call>{"name": "search", "arguments": {"q": "x"}}</tool_call>',
    '<function_calls>\n<invoke name="bash">',
    '{"role": "assistant", "tool_calls": [{"id": "call_1"}]}',
    '{"type": "tool_use", "id": "toolu_01", "name": "get_weather"}',
    '{"type":"function_call_output","call_id":"c1","output":"ok"}',
    '{"role": "tool", "content": "42"}',
    '[TOOL_CALLS] [{"name": "lookup"}]',
  ];

  it.each(TOOL_LOGS)(
    '16 WS-379 a body holding a tool-call log (%s) is refused before any row is written',
    async (log) => {
      const { project } = await filed();
      const before = await h.state();
      const r = await h.call('POST', `/v1/projects/${project.id}/outputs`, EDITOR, {
        data: { slug: 'transcript', body: `Summary\n\n${log}` },
      });
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('tool_log_in_output');
      expect(r.errors[0].value.line).toBe(3);
      expect(await h.state()).toEqual(before);
    },
  );

  it('16 WS-379 ordinary prose mentioning keys, tokens and tools is saved', async () => {
    const { conversation } = await filed();
    const body =
      'Rotate the API key (sk- prefix) monthly. The bearer token lives in the vault.\n' +
      'Tool calls are logged elsewhere; see https://example.com/docs?a=b. Role: tool owner.';
    const r = await save(conversation.id, { slug: 'policy', body });
    expect(r.status).toBe(201);
  });

  it('16 WS-381 an unfiled conversation’s output without project_id is 422 project_id_required; nothing written', async () => {
    const started = await h.call('POST', '/v1/conversations', EDITOR, { data: { title: 'Unfiled' } });
    const p = await h.team();
    const before = await h.state();
    const r = await save(started.data.id, { slug: 'draft', body: 'text' });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('project_id_required');
    expect(await h.state()).toEqual(before);
    const ok = await save(started.data.id, { slug: 'draft', body: 'text', project_id: p.id });
    expect(ok.status).toBe(201);
    expect(ok.data).toMatchObject({ project_id: p.id, conversation_id: started.data.id, version: 1 });
    // The conversation stays unfiled.
    const conv = await h.call('GET', `/v1/conversations/${started.data.id}`, EDITOR);
    expect(conv.data.project_id).toBeUndefined();
    // A project where the caller is only a viewer: 403, nothing written.
    const q = await h.project();
    await h.member(q.id, EDITOR, 'viewer');
    const refused = await save(started.data.id, { slug: 'draft', body: 'text', project_id: q.id });
    expect(refused.status).toBe(403);
  });

  it('16 WS-381 a filed conversation saves on its own project: another project_id is 422 project_mismatch', async () => {
    const { conversation } = await filed();
    const other = await h.team();
    const r = await save(conversation.id, { slug: 'x', body: 'y', project_id: other.id });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('project_mismatch');
  });

  it('16 WS-375 bad input is a clear 422 and writes nothing: slug, title, content type, unknown keys', async () => {
    const { conversation } = await filed();
    const before = await h.state();
    const cases: [Record<string, unknown>, string][] = [
      [{ slug: 'Board Memo', body: 'x' }, 'invalid_slug'],
      [{ slug: '-lead', body: 'x' }, 'invalid_slug'],
      [{ slug: 'ok', body: 'x', title: 't'.repeat(201) }, 'invalid_output_title'],
      [{ slug: 'ok', body: 'x', content_type: 'not a type' }, 'invalid_content_type'],
      [{ slug: 'ok', body: 'x', sha256: 'abc' }, 'validation_failed'],
      [{ slug: 'ok' }, 'validation_failed'],
    ];
    for (const [data, code] of cases) {
      const r = await save(conversation.id, data);
      expect([r.status, r.errors?.[0]?.code]).toEqual([422, code]);
    }
    expect(await h.state()).toEqual(before);
  });

  it('16 WS-375 a viewer of the project may not save (403) and a stranger cannot see the conversation (404)', async () => {
    const { conversation } = await filed();
    const before = await h.state();
    expect((await save(conversation.id, { slug: 'a', body: 'b' }, VIEWER)).status).toBe(403);
    const stranger = await save(conversation.id, { slug: 'a', body: 'b' }, OUTSIDER);
    expect([stranger.status, stranger.errors[0].code]).toEqual([404, 'conversation_not_found']);
    expect(await h.state()).toEqual(before);
  });
});

describe('reading outputs', () => {
  it('16 WS-380 GET /v1/conversations/{id}/outputs lists active rows by default; superseded only when asked', async () => {
    const { conversation } = await filed();
    const a1 = await save(conversation.id, { slug: 'a', body: '1' });
    const a2 = await save(conversation.id, { slug: 'a', body: '2' });
    const b1 = await save(conversation.id, { slug: 'b', body: '1' });
    const url = `/v1/conversations/${conversation.id}/outputs`;
    const active = await h.call('GET', url, VIEWER);
    expect(active.status).toBe(200);
    expect(active.data.map((o: { id: string }) => o.id).sort()).toEqual([a2.data.id, b1.data.id].sort());
    expect(active.meta.pagination).toMatchObject({ totalItems: 2 });
    const superseded = await h.call('GET', `${url}?status=superseded`, VIEWER);
    expect(superseded.data.map((o: { id: string }) => o.id)).toEqual([a1.data.id]);
    const all = await h.call('GET', `${url}?status=all&slug=a`, VIEWER);
    expect(all.data.map((o: { version: number }) => o.version)).toEqual([2, 1]);
    const paged = await h.call('GET', `${url}?status=all&pagination[pageSize]=1&pagination[page]=2`, VIEWER);
    expect(paged.data).toHaveLength(1);
    expect(paged.meta.pagination).toMatchObject({ totalItems: 3 });
    expect((await h.call('GET', `${url}?status=gone`, VIEWER)).status).toBe(422);
    expect((await h.call('GET', url, OUTSIDER)).status).toBe(404);
  });

  it('16 WS-384 GET /v1/outputs/{id} returns one output with its body (project readers; others 404)', async () => {
    const { conversation } = await filed();
    const saved = await save(conversation.id, { slug: 'memo', body: 'The memo text' });
    const r = await h.call('GET', `/v1/outputs/${saved.data.id}`, VIEWER);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ ...saved.data, body: 'The memo text' });
    const stranger = await h.call('GET', `/v1/outputs/${saved.data.id}`, OUTSIDER);
    expect([stranger.status, stranger.errors[0].code]).toEqual([404, 'output_not_found']);
    expect((await h.call('GET', `/v1/outputs/${randomUUID()}`, VIEWER)).status).toBe(404);
  });

  it('16 WS-385 query version on GET /v1/outputs/{id} selects another version of the same slug', async () => {
    const { conversation } = await filed();
    const v1 = await save(conversation.id, { slug: 'spec', body: 'first' });
    const v2 = await save(conversation.id, { slug: 'spec', body: 'second' });
    await save(conversation.id, { slug: 'other', body: 'first' });
    const r = await h.call('GET', `/v1/outputs/${v2.data.id}?version=1`, VIEWER);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ id: v1.data.id, version: 1, status: 'superseded', body: 'first' });
    const back = await h.call('GET', `/v1/outputs/${v1.data.id}?version=2`, VIEWER);
    expect(back.data).toMatchObject({ id: v2.data.id, status: 'active', body: 'second' });
    const none = await h.call('GET', `/v1/outputs/${v1.data.id}?version=9`, VIEWER);
    expect([none.status, none.errors[0].code]).toEqual([404, 'output_not_found']);
  });
});

describe('project outputs', () => {
  it('16 WS-271 GET and POST /v1/projects/{id}/outputs list and save the project’s outputs (200 / 201)', async () => {
    const { project, conversation } = await filed();
    const fromConversation = await save(conversation.id, { slug: 'from-chat', body: 'chat' });
    const direct = await h.call('POST', `/v1/projects/${project.id}/outputs`, EDITOR, {
      data: { slug: 'direct', body: 'typed in', title: 'Direct' },
    });
    expect(direct.status).toBe(201);
    expect(direct.data).toMatchObject({ project_id: project.id, conversation_id: null, slug: 'direct', version: 1 });
    const list = await h.call('GET', `/v1/projects/${project.id}/outputs`, VIEWER);
    expect(list.status).toBe(200);
    expect(list.data.map((o: { id: string }) => o.id).sort()).toEqual(
      [fromConversation.data.id, direct.data.id].sort(),
    );
    expect(list.meta.pagination).toMatchObject({ page: 1, totalItems: 2 });
    // Same table: the project route's save of the conversation's slug is its next version.
    const next = await h.call('POST', `/v1/projects/${project.id}/outputs`, OWNER, {
      data: { slug: 'from-chat', body: 'edited' },
    });
    expect(next.data).toMatchObject({ version: 2, conversation_id: null });
    expect((await h.call('GET', `/v1/conversations/${conversation.id}/outputs`, VIEWER)).data).toEqual([]);
  });

  it('16 WS-271 a viewer may not save on the project (403); a stranger gets 404; nothing written', async () => {
    const p = await h.team();
    const before = await h.state();
    expect(
      (await h.call('POST', `/v1/projects/${p.id}/outputs`, VIEWER, { data: { slug: 'a', body: 'b' } })).status,
    ).toBe(403);
    expect(
      (await h.call('POST', `/v1/projects/${p.id}/outputs`, OUTSIDER, { data: { slug: 'a', body: 'b' } })).status,
    ).toBe(404);
    expect((await h.call('GET', `/v1/projects/${p.id}/outputs`, OUTSIDER)).status).toBe(404);
    expect(await h.state()).toEqual(before);
  });
});

describe('the upload path without the documents service', () => {
  it('16 WS-382 with DOCUMENTS_URL unset, upload and finalize answer 503 documents_not_configured; nothing written', async () => {
    const { conversation } = await filed();
    const before = await h.state();
    const up = await h.call('POST', `/v1/conversations/${conversation.id}/outputs/upload`, EDITOR, {
      data: { slug: 'large', filename: 'large.pdf' },
    });
    expect([up.status, up.errors[0].code]).toEqual([503, 'documents_not_configured']);
    const fin = await h.call('POST', `/v1/conversations/${conversation.id}/outputs/finalize`, EDITOR, {
      data: { upload_id: randomUUID(), sha256: sha('x') },
    });
    expect([fin.status, fin.errors[0].code]).toEqual([503, 'documents_not_configured']);
    expect(await h.state()).toEqual(before);
  });
});
