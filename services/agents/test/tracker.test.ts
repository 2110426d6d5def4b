import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_KINDS } from '../src/clients/checks.ts';
import { httpGitHost } from '../src/clients/git-host.ts';
import { type AdfNode, adfToText, httpTracker } from '../src/clients/tracker.ts';
import { trackerClientsFromConfig } from '../src/clients/tracker-config.ts';
import { agentsConfig } from '../src/config.ts';
import { checkClients, type FakeChecks, startFakeChecks } from './fakes/checks.ts';
import { type FakeGitHost, startFakeGitHost } from './fakes/git-host.ts';
import { adf, type FakeJira, startFakeJira } from './fakes/jira.ts';
import { type As, fid, type Harness, harness, OWNER, tag, testEnv, VIEWER } from './harness.ts';

const ORG = 'company';
let jira: FakeJira;
let github: FakeGitHost;
let checks: FakeChecks;
let h: Harness;

beforeAll(async () => {
  [jira, github, checks] = await Promise.all([startFakeJira(), startFakeGitHost(), startFakeChecks()]);
  h = await harness({
    app: {
      tracker: httpTracker({ baseUrl: jira.url, email: jira.email, apiToken: jira.apiToken, timeoutMs: 5_000 }),
      gitHost: httpGitHost({ baseUrl: github.url, token: github.token, owner: ORG, timeoutMs: 5_000 }),
      checks: checkClients(checks),
    },
  });
});
afterAll(async () => {
  await h.close_();
  await Promise.all([jira.close(), github.close(), ...CHECK_KINDS.map((k) => checks[k].close())]);
});

/**
 * Closes an extra app of this file: embedded, it shares the file's database (closed by `h`); on
 * PostgreSQL its own schema is dropped.
 */
async function closeExtra(x: Harness) {
  await x.app.close();
  if (process.env.TEST_POSTGRES_URL) await (x.database as unknown as { drop(): Promise<void> }).drop();
}

/** Every request any fake of an outside system received. */
const allRequests = () => [...jira.requests, ...github.requests, ...CHECK_KINDS.flatMap((k) => checks[k].requests)];
const allWrites = () => allRequests().filter((r) => r.method !== 'GET');

let issueNo = 100;
/** A fresh issue in the fake tracker and a tracker agent whose instructions name it. */
async function trackerAgent(issue: { summary?: string; status?: string; description?: string[] } = {}) {
  const key = `OPS-${issueNo++}`;
  jira.issues.set(key, {
    summary: issue.summary ?? 'Resident cannot open the lobby door',
    status: issue.status ?? 'In Progress',
    description: adf(...(issue.description ?? ['The resident at 12B reports the fob stopped working.'])),
  });
  const agent = await h.agent({
    name: `Tracker ${tag()}`,
    instructions: `You handle tracker issue ${key} until it is resolved. Related: see OPS-1 for history.`,
  });
  await h.db
    .insertInto('agent_members')
    .values({ agent_id: agent.id, principal_fid: fid(VIEWER), role: 'viewer', added_at: h.now() })
    .execute();
  return { key, agent, as: { service: agent.id } as As };
}

const tool = (agentId: string, name: string) => `/v1/agents/${agentId}/tracker/${name}`;
const codeOf = (r: { body: { payload: { errors?: { code: string }[] } } }) => r.body.payload.errors?.[0]?.code;

describe('tracker/read', () => {
  it('20 AGT-139 reads the issue named in the instructions: summary, status and the description as text', async () => {
    const t = await trackerAgent({
      summary: 'Door fob broken',
      status: 'To Do',
      description: ['First paragraph.', 'Second paragraph with more.'],
    });
    const before = jira.requests.length;
    const r = await h.call('POST', tool(t.agent.id, 'read'), t.as, { data: { issue_key: t.key } }, null);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      issue_key: t.key,
      summary: 'Door fob broken',
      status: 'To Do',
      description: 'First paragraph.\nSecond paragraph with more.',
    });
    const sent = jira.requests.slice(before);
    expect(sent.map((q) => [q.method, q.path])).toEqual([['GET', `/rest/api/3/issue/${t.key}`]]);
    expect(sent[0]?.query.get('fields')).toBe('summary,status,description');
    // The read_tracker_issue tool may leave the key out: the named issue is read.
    const implied = await h.call('POST', tool(t.agent.id, 'read'), t.as, { data: {} }, null);
    expect([implied.status, implied.data]).toEqual([200, r.data]);
  });

  it('20 AGT-140 another issue key (even one the instructions mention later) is refused before any tracker call', async () => {
    const t = await trackerAgent();
    const before = jira.requests.length;
    for (const key of ['OPS-1', 'OPS-99999']) {
      const r = await h.call('POST', tool(t.agent.id, 'read'), t.as, { data: { issue_key: key } }, null);
      expect([r.status, codeOf(r)]).toEqual([403, 'issue_not_named']);
      expect(r.body.payload.data).toBeUndefined();
    }
    // An agent whose instructions name no issue reads none.
    const plain = await h.agent({ name: `Plain ${tag()}`, instructions: 'Help out.' });
    const r = await h.call('POST', tool(plain.id, 'read'), { service: plain.id }, { data: { issue_key: t.key } }, null);
    expect([r.status, codeOf(r)]).toEqual([403, 'issue_not_named']);
    expect(jira.requests.length).toBe(before);
  });

  it('20 AGT-139 the tool acts on the path’s agent only; a tracker failure is 502 and a missing issue 404', async () => {
    const t = await trackerAgent();
    const other = await h.agent({ name: `Other ${tag()}` });
    const mismatch = await h.call(
      'POST',
      tool(t.agent.id, 'read'),
      { service: other.id },
      { data: { issue_key: t.key } },
      null,
    );
    expect([mismatch.status, codeOf(mismatch)]).toEqual([403, 'agent_header_mismatch']);
    jira.failWith = 503;
    try {
      const r = await h.call('POST', tool(t.agent.id, 'read'), t.as, { data: { issue_key: t.key } }, null);
      expect([r.status, codeOf(r)]).toEqual([502, 'tracker_unavailable']);
    } finally {
      jira.failWith = null;
    }
    jira.issues.delete(t.key);
    const gone = await h.call('POST', tool(t.agent.id, 'read'), t.as, { data: { issue_key: t.key } }, null);
    expect([gone.status, codeOf(gone)]).toEqual([404, 'tracker_issue_not_found']);
  });
});

describe('tracker/investigate', () => {
  it('20 AGT-141 AGT-142 reads the issue and the five read-only checks into one comment, writing nothing anywhere', async () => {
    const email = `jane.${tag()}@residents.test`;
    const t = await trackerAgent({
      summary: 'Lobby door will not open',
      description: [`Resident ${email.toUpperCase()} says her fob stopped on Monday.`],
    });
    checks.identity.people.set(email, { ok: true, summary: 'Account active since 2025-06-01' });
    checks.linkage.people.set(email, { ok: true, summary: 'Linked to resident R-778' });
    checks.lease.people.set(email, { ok: false, summary: 'Lease L-1002 ended 2026-02-28' });
    checks.door_access.people.set(email, { ok: true, summary: 'Fob 4471 enabled for lobby and 12B' });
    // dashboard: the person is unknown there.
    const stateBefore = await h.state();
    const writesBefore = allWrites().length;
    const checkRequestsBefore = CHECK_KINDS.map((k) => checks[k].requests.length);

    const r = await h.call('POST', tool(t.agent.id, 'investigate'), t.as, { data: { issue_key: t.key } }, null);
    expect(r.status).toBe(200);
    const data = r.data as { email: string; comment: string; checks: { check: string; outcome: string }[] };
    expect(data.email).toBe(email);
    expect(data.checks.map((c) => [c.check, c.outcome])).toEqual([
      ['identity', 'ok'],
      ['linkage', 'ok'],
      ['lease', 'problem'],
      ['dashboard', 'not_found'],
      ['door_access', 'ok'],
    ]);
    expect(data.comment).toContain(`Investigation of ${t.key}`);
    expect(data.comment).toContain(`Checked ${email}`);
    expect(data.comment).toContain('- Lease: problem. Lease L-1002 ended 2026-02-28');
    expect(data.comment).toContain('- Dashboard: not found.');
    expect(data.comment).toContain('Look first at: lease, dashboard.');
    // Each check asked once, by GET, with its own token and the email.
    CHECK_KINDS.forEach((k, i) => {
      const sent = checks[k].requests.slice(checkRequestsBefore[i]);
      expect(sent.map((q) => [q.method, q.query.get('email'), q.authorization])).toEqual([
        ['GET', email, `Bearer ${k}-token`],
      ]);
    });
    // AGT-142: no write reached the tracker or any checked system, nothing stored.
    expect(allWrites().length).toBe(writesBefore);
    expect(await h.state()).toEqual(stateBefore);
  });

  it('20 AGT-141 a check that does not answer is reported as not checked, still nothing written', async () => {
    const email = `sam.${tag()}@residents.test`;
    const t = await trackerAgent({ description: [`Contact: ${email}`] });
    checks.door_access.failWith = 500;
    try {
      const r = await h.call('POST', tool(t.agent.id, 'investigate'), t.as, { data: { issue_key: t.key } }, null);
      expect(r.status).toBe(200);
      expect((r.data as { comment: string }).comment).toContain(
        '- Door access: not checked. could not be read (status 500)',
      );
    } finally {
      checks.door_access.failWith = null;
    }
    expect(allWrites()).toEqual([]);
  });

  it('20 AGT-143 an issue without an email: the comment says so and no check is asked', async () => {
    const t = await trackerAgent({ summary: 'Someone in 4C cannot get in', description: ['No contact given.'] });
    const before = CHECK_KINDS.map((k) => checks[k].requests.length);
    const r = await h.call('POST', tool(t.agent.id, 'investigate'), t.as, { data: { issue_key: t.key } }, null);
    expect(r.status).toBe(200);
    const data = r.data as { email: null; comment: string; checks: unknown[] };
    expect(data.email).toBeNull();
    expect(data.checks).toEqual([]);
    expect(data.comment).toContain('There is no email in this issue');
    expect(CHECK_KINDS.map((k) => checks[k].requests.length)).toEqual(before);
  });

  it('20 AGT-140 investigate refuses another key before any outside call', async () => {
    const t = await trackerAgent();
    const before = allRequests().length;
    const r = await h.call('POST', tool(t.agent.id, 'investigate'), t.as, { data: { issue_key: 'OPS-1' } }, null);
    expect([r.status, codeOf(r)]).toEqual([403, 'issue_not_named']);
    expect(allRequests().length).toBe(before);
  });
});

describe('tracker/investigate without credentials', () => {
  it('20 AGT-144 AGT-145 503 without the tracker or a check; the running agent is untouched and nothing is asked', async () => {
    // Apps without the systems; embedded, they share this file's database, which only `h` closes.
    const bare = await harness();
    const trackerOnly = await harness({
      app: {
        tracker: httpTracker({ baseUrl: jira.url, email: jira.email, apiToken: jira.apiToken, timeoutMs: 5_000 }),
        checks: { ...checkClients(checks), lease: undefined },
      },
    });
    try {
      const key = `OPS-${issueNo++}`;
      jira.issues.set(key, { summary: 'x', status: 'To Do', description: adf('mail a@b.test') });
      const before = allRequests().length;
      for (const [app, code] of [
        [bare, 'tracker_not_configured'],
        [trackerOnly, 'checks_not_configured'],
      ] as const) {
        const agent = await app.agent({ name: `Tracker ${tag()}`, instructions: `Work ${key}.` });
        await app.ok('POST', `/v1/agents/${agent.id}/start`, {});
        const running = (await app.call('GET', `/v1/agents/${agent.id}`)).data as Record<string, unknown>;
        const stateBefore = await app.state();
        const r = await app.call(
          'POST',
          tool(agent.id, 'investigate'),
          { service: agent.id },
          { data: { issue_key: key } },
          null,
        );
        expect([r.status, codeOf(r)]).toEqual([503, code]);
        const after = (await app.call('GET', `/v1/agents/${agent.id}`)).data as Record<string, unknown>;
        expect([after.desired_state, after.status]).toEqual(['running', 'active']);
        expect([after.desired_state, after.status, after.generation]).toEqual([
          running.desired_state,
          running.status,
          running.generation,
        ]);
        expect(await app.state()).toEqual(stateBefore);
      }
      expect(allRequests().length).toBe(before);
    } finally {
      await closeExtra(bare);
      await closeExtra(trackerOnly);
    }
  });
});

describe('tracker/recommendations', () => {
  it('20 AGT-146 AGT-147 two concurrent recommendations post one comment; the stored row answers both and a repeat', async () => {
    const t = await trackerAgent();
    const url = tool(t.agent.id, 'recommendations');
    // Both calls are in flight before the tracker answers the first comment.
    let release = () => {};
    jira.gate = new Promise<void>((r) => {
      release = r;
    });
    const calls = Promise.all([
      h.call('POST', url, t.as, { data: { issue_key: t.key, text: 'Re-enable fob 4471 for the lobby.' } }),
      h.call('POST', url, t.as, { data: { issue_key: t.key, text: 'Replace the lobby reader.' } }),
    ]);
    await new Promise((r) => setTimeout(r, 50));
    jira.gate = null;
    release();
    const [a, b] = await calls;
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.data).toEqual(b.data);
    const row = a.data as { id: string; text: string; comment_id: string; issue_key: string };
    expect(jira.comments.filter((c) => c.issue === t.key)).toHaveLength(1);
    expect(jira.commentTexts(t.key)).toEqual([row.text]);
    expect(row.comment_id).toBe(jira.comments.find((c) => c.issue === t.key)?.id);
    const stored = await h.db
      .selectFrom('tracker_recommendations')
      .selectAll()
      .where('agent_id', '=', t.agent.id)
      .execute();
    expect(stored.map((s) => [s.id, s.issue_key, s.text])).toEqual([[row.id, t.key, row.text]]);

    const again = await h.call('POST', url, t.as, { data: { issue_key: t.key, text: 'Something else' } });
    expect([again.status, again.data]).toEqual([200, row]);
    expect(jira.comments.filter((c) => c.issue === t.key)).toHaveLength(1);
  });

  it('20 AGT-146 a failed post stores nothing; another key is refused with no tracker call', async () => {
    const t = await trackerAgent();
    const url = tool(t.agent.id, 'recommendations');
    const before = await h.state();
    jira.failWith = 500;
    try {
      const r = await h.call('POST', url, t.as, { data: { issue_key: t.key, text: 'Try again later' } });
      expect([r.status, codeOf(r)]).toEqual([502, 'tracker_unavailable']);
    } finally {
      jira.failWith = null;
    }
    const n = jira.requests.length;
    const other = await h.call('POST', url, t.as, { data: { issue_key: 'OPS-1', text: 'x' } });
    expect([other.status, codeOf(other)]).toEqual([403, 'issue_not_named']);
    expect(jira.requests.length).toBe(n);
    const viewer = await h.call('POST', url, VIEWER, { data: { issue_key: t.key, text: 'x' } });
    expect([viewer.status, codeOf(viewer)]).toEqual([403, 'insufficient_role']);
    expect(await h.state()).toEqual(before);
  });
});

type ClaimData = {
  id: string;
  repository: string;
  branch: string;
  path_prefix: string | null;
  coding_agent_id: string;
  pull_request_url: string | null;
  comment_id: string | null;
};

describe('tracker/claims and reports', () => {
  it('20 AGT-148 AGT-149 a deepsky claim starts one ephemeral coding agent on development under deepsky', async () => {
    const t = await trackerAgent();
    const before = jira.requests.length;
    const claim = await h.ok<ClaimData>(
      'POST',
      tool(t.agent.id, 'claims'),
      { issue_key: t.key, repository: 'deepsky' },
      201,
      t.as,
    );
    expect(claim).toMatchObject({ repository: 'deepsky', branch: 'development', path_prefix: 'deepsky' });
    const children = await h.db.selectFrom('agents').selectAll().where('parent_id', '=', t.agent.id).execute();
    expect(children).toHaveLength(1);
    const coding = children[0];
    expect(coding).toMatchObject({
      id: claim.coding_agent_id,
      lifetime: 'ephemeral',
      child_kind: 'coding',
      repository: 'deepsky',
      desired_state: 'running',
      created_by: `agent:${t.agent.id}`,
    });
    expect(coding?.instructions).toContain(t.key);
    expect(coding?.instructions).toContain('against development');
    expect(coding?.instructions).toContain('under deepsky/');
    const started = (await h.events('agent.started')).filter((e) => e.payload.data.agent_id === coding?.id);
    expect(started.map((e) => e.payload.data.reason)).toEqual(['coding']);
    expect(jira.requests.length).toBe(before);
  });

  it('20 AGT-148 a platform claim works on main with no path prefix; another repository is 422', async () => {
    const t = await trackerAgent();
    const claim = await h.ok<ClaimData>(
      'POST',
      tool(t.agent.id, 'claims'),
      { issue_key: t.key, repository: 'platform' },
      201,
      t.as,
    );
    expect(claim).toMatchObject({ repository: 'platform', branch: 'main', path_prefix: null });
    const t2 = await trackerAgent();
    const r = await h.call('POST', tool(t2.agent.id, 'claims'), t2.as, {
      data: { issue_key: t2.key, repository: 'other' },
    });
    expect(r.status).toBe(422);
  });

  it('20 AGT-150 a claim while a coding run is open is 409 and writes no coding agent', async () => {
    const t = await trackerAgent();
    await h.ok('POST', tool(t.agent.id, 'claims'), { issue_key: t.key, repository: 'deepsky' }, 201, t.as);
    const before = await h.state();
    const r = await h.call('POST', tool(t.agent.id, 'claims'), t.as, {
      data: { issue_key: t.key, repository: 'platform' },
    });
    expect([r.status, codeOf(r)]).toEqual([409, 'coding_run_open']);
    expect(await h.state()).toEqual(before);
    // Two claims at once: the agent's row lock orders them, the second finds the first's run open.
    const t3 = await trackerAgent();
    const both = await Promise.all(
      ['deepsky', 'platform'].map((repository) =>
        h.call('POST', tool(t3.agent.id, 'claims'), t3.as, { data: { issue_key: t3.key, repository } }),
      ),
    );
    expect(both.map((x) => x.status).sort()).toEqual([201, 409]);
    const coding = await h.db.selectFrom('agents').select('id').where('parent_id', '=', t3.agent.id).execute();
    expect(coding).toHaveLength(1);
    // A coding agent started through the core's route counts as an open run too.
    const t2 = await trackerAgent();
    await h.ok('POST', `/v1/agents/${t2.agent.id}/coding-agents`, { repository: 'platform' }, 201, OWNER);
    const r2 = await h.call('POST', tool(t2.agent.id, 'claims'), t2.as, {
      data: { issue_key: t2.key, repository: 'deepsky' },
    });
    expect([r2.status, codeOf(r2)]).toEqual([409, 'coding_run_open']);
  });

  it('20 AGT-151 a report comments the pull request URL of the finished attempt, once', async () => {
    const t = await trackerAgent();
    const claim = await h.ok<ClaimData>(
      'POST',
      tool(t.agent.id, 'claims'),
      { issue_key: t.key, repository: 'deepsky' },
      201,
      t.as,
    );
    github.pull(`${ORG}/deepsky`, 41, { base: 'development', head: `fix/${t.key}` });
    github.pull(`${ORG}/deepsky`, 42, { base: 'main', head: 'elsewhere' });
    const report = (n: number) =>
      h.call('POST', tool(t.agent.id, 'reports'), t.as, { data: { issue_key: t.key, pull_request: n } });

    const running = await report(41);
    expect([running.status, codeOf(running)]).toEqual([409, 'coding_attempt_running']);
    // The coding agent's harness ends its run.
    await h.ok('POST', `/v1/agents/${claim.coding_agent_id}/expire`, { reason: 'finished' }, 200, { service: null });

    const missing = await report(40);
    expect([missing.status, codeOf(missing)]).toEqual([422, 'pull_request_not_found']);
    const wrongBase = await report(42);
    expect([wrongBase.status, codeOf(wrongBase)]).toEqual([422, 'pull_request_mismatch']);
    expect(jira.comments.filter((c) => c.issue === t.key)).toHaveLength(0);

    const done = await report(41);
    expect(done.status).toBe(200);
    const url = `https://github.com/${ORG}/deepsky/pull/41`;
    expect(done.data).toMatchObject({ id: claim.id, pull_request_url: url });
    const texts = jira.commentTexts(t.key);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(url);
    const link = jira.comments.find((c) => c.issue === t.key)?.body.content?.[0]?.content?.find((n) => n.text === url);
    expect(link?.marks?.[0]).toEqual({ type: 'link', attrs: { href: url } });
    expect(
      github.requests
        .filter((q) => q.path === `/repos/${ORG}/deepsky/pulls/41`)
        .every((q) => q.authorization === `Bearer ${github.token}`),
    ).toBe(true);

    const repeat = await report(41);
    expect([repeat.status, repeat.data]).toEqual([200, done.data]);
    expect(jira.commentTexts(t.key)).toHaveLength(1);
  });

  it('20 AGT-151 no claim is 409; without the git host 503 and no comment', async () => {
    const t = await trackerAgent();
    const r = await h.call('POST', tool(t.agent.id, 'reports'), t.as, { data: { issue_key: t.key, pull_request: 1 } });
    expect([r.status, codeOf(r)]).toEqual([409, 'no_coding_attempt']);
    const noGit = await harness({
      app: {
        tracker: httpTracker({ baseUrl: jira.url, email: jira.email, apiToken: jira.apiToken, timeoutMs: 5_000 }),
      },
    });
    try {
      const agent = await noGit.agent({ name: `Tracker ${tag()}`, instructions: `Work ${t.key}.` });
      const r2 = await noGit.call(
        'POST',
        tool(agent.id, 'reports'),
        { service: agent.id },
        { data: { issue_key: t.key, pull_request: 1 } },
      );
      expect([r2.status, codeOf(r2)]).toEqual([503, 'git_host_not_configured']);
    } finally {
      await closeExtra(noGit);
    }
    expect(jira.comments.filter((c) => c.issue === t.key)).toHaveLength(0);
  });
});

describe('tracker clients', () => {
  it('20 AGT-139 Jira’s description in ADF reads as text: blocks on their lines, lists, mentions and links kept', () => {
    const doc: AdfNode = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Steps' }] },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Tap the fob' }] }] },
            {
              type: 'listItem',
              content: [
                {
                  type: 'paragraph',
                  content: [
                    { type: 'text', text: 'Ask ' },
                    { type: 'mention', attrs: { id: 'x', text: '@Dana' } },
                    { type: 'hardBreak' },
                    { type: 'inlineCard', attrs: { url: 'https://status.example/door' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(adfToText(doc)).toBe('Steps\nTap the fob\nAsk @Dana\nhttps://status.example/door');
    expect(adfToText(null)).toBe('');
  });

  it('20 AGT-144 each system is built only with its address and its credential; a rejected credential is 502', async () => {
    const env = {
      TRACKER_URL: jira.url,
      TRACKER_EMAIL: jira.email,
      TRACKER_API_TOKEN: jira.apiToken,
      GITHUB_API_URL: github.url,
      GITHUB_TOKEN: github.token,
      TRACKER_GITHUB_ORG: ORG,
      ...Object.fromEntries(
        CHECK_KINDS.flatMap((k) => [
          [`CHECK_${k.toUpperCase()}_URL`, checks[k].url],
          [`CHECK_${k.toUpperCase()}_TOKEN`, checks[k].token],
        ]),
      ),
    };
    const full = trackerClientsFromConfig(agentsConfig(testEnv(env)));
    expect([Boolean(full.tracker), Boolean(full.gitHost), Object.keys(full.checks)]).toEqual([
      true,
      true,
      [...CHECK_KINDS],
    ]);
    const partial = trackerClientsFromConfig(
      agentsConfig(
        testEnv({ ...env, TRACKER_API_TOKEN: undefined, TRACKER_GITHUB_ORG: undefined, CHECK_LEASE_TOKEN: undefined }),
      ),
    );
    expect([partial.tracker, partial.gitHost, Object.keys(partial.checks)]).toEqual([
      undefined,
      undefined,
      CHECK_KINDS.filter((k) => k !== 'lease'),
    ]);
    // The clients built from configuration speak to the fakes.
    jira.issues.set('OPS-9001', { summary: 'Configured', status: 'Done', description: null });
    expect(await full.tracker?.getIssue('OPS-9001')).toEqual({
      key: 'OPS-9001',
      summary: 'Configured',
      status: 'Done',
      description: '',
    });
    const wrong = httpTracker({ baseUrl: jira.url, email: jira.email, apiToken: 'not-the-token', timeoutMs: 5_000 });
    await expect(wrong.getIssue('OPS-9001')).rejects.toMatchObject({ status: 502, code: 'tracker_unavailable' });
    const wrongGit = httpGitHost({ baseUrl: github.url, token: 'nope', owner: ORG, timeoutMs: 5_000 });
    await expect(wrongGit.pullRequest('deepsky', 1)).rejects.toMatchObject({
      status: 502,
      code: 'git_host_unavailable',
    });
  });
});
