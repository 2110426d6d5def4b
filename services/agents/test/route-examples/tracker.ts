import type { RouteExample } from '@platform/kit/testing';
import type { AgentsDeps } from '../../src/app.ts';
import { CHECK_KINDS } from '../../src/clients/checks.ts';
import { httpGitHost } from '../../src/clients/git-host.ts';
import { httpTracker } from '../../src/clients/tracker.ts';
import { checkClients, startFakeChecks } from '../fakes/checks.ts';
import { startFakeGitHost } from '../fakes/git-host.ts';
import { adf, startFakeJira } from '../fakes/jira.ts';
import { fid, type Harness, tag, VIEWER } from '../harness.ts';

const ISSUE = 'RC-1';
const ORG = 'route-checks';

/** The tracker tools' outside systems for the route checks: local fakes, and the app's clients of them. */
export async function startTrackerFakes() {
  const [jira, github, checks] = await Promise.all([startFakeJira(), startFakeGitHost(), startFakeChecks()]);
  jira.issues.set(ISSUE, { summary: 'Route checks', status: 'To Do', description: adf('An issue to comment on.') });
  let pulls = 0;
  const deps: Pick<AgentsDeps, 'tracker' | 'gitHost' | 'checks'> = {
    tracker: httpTracker({ baseUrl: jira.url, email: jira.email, apiToken: jira.apiToken, timeoutMs: 5_000 }),
    gitHost: httpGitHost({ baseUrl: github.url, token: github.token, owner: ORG, timeoutMs: 5_000 }),
    checks: checkClients(checks),
  };
  return {
    deps,
    /** A fresh pull request into deepsky's development branch. */
    pull: () => {
      pulls += 1;
      github.pull(`${ORG}/deepsky`, pulls, { base: 'development', head: `fix/${pulls}` });
      return pulls;
    },
    close: () => Promise.all([jira.close(), github.close(), ...CHECK_KINDS.map((k) => checks[k].close())]),
  };
}
export type TrackerFakes = Awaited<ReturnType<typeof startTrackerFakes>>;

/**
 * One valid request per tracker command. Each gets a fresh agent owned by OWNER whose instructions
 * name the fake tracker's issue, with VIEWER as a viewer (the 403 case); a report's agent has a
 * claim whose coding agent finished, and a fresh pull request to name.
 */
export const TRACKER_EXAMPLES = (h: Harness, fakes: () => TrackerFakes): Record<string, RouteExample> => {
  const agent = async () => {
    const a = await h.agent({ name: `Route check ${tag()}`, instructions: `Work on ${ISSUE}.` });
    await h.db
      .insertInto('agent_members')
      .values({ agent_id: a.id, principal_fid: fid(VIEWER), role: 'viewer', added_at: h.now() })
      .execute();
    return a.id;
  };
  let pull = 0;
  return {
    'POST /v1/agents/{id}/tracker/recommendations': {
      url: async () => `/v1/agents/${await agent()}/tracker/recommendations`,
      body: { data: { issue_key: ISSUE, text: 'Re-enable the fob.' } },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/tracker/claims': {
      url: async () => `/v1/agents/${await agent()}/tracker/claims`,
      body: { data: { issue_key: ISSUE, repository: 'deepsky' } },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/tracker/reports': {
      url: async () => {
        const id = await agent();
        const claim = await h.ok<{ coding_agent_id: string }>(
          'POST',
          `/v1/agents/${id}/tracker/claims`,
          { issue_key: ISSUE, repository: 'deepsky' },
          201,
        );
        await h.ok('POST', `/v1/agents/${claim.coding_agent_id}/expire`, { reason: 'finished' }, 200, {
          service: null,
        });
        pull = fakes().pull();
        return `/v1/agents/${id}/tracker/reports`;
      },
      body: () => ({ data: { issue_key: ISSUE, pull_request: pull } }),
      denied: VIEWER,
    },
  };
};
