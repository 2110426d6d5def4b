import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpGithub } from '../src/clients/github.ts';
import type { JobSettings } from '../src/routes/jobs-deps.ts';
import { listFlowToolRepositories } from '../src/store/flow-tools.ts';
import { type FakeGithub, startFakeGithub } from './fakes/github.ts';
import { type Harness, harness } from './harness.ts';
import { asScheduler, SCHEDULER } from './jobs-helpers.ts';

let github: FakeGithub;
let h: Harness;
let settings: JobSettings;
beforeAll(async () => {
  github = await startFakeGithub({ token: 'ghp-fake' });
  settings = {
    summarizer: false,
    questionMessaging: false,
    github: new HttpGithub({ baseUrl: github.url, token: 'ghp-fake' }),
    flowToolsOrg: 'acme',
  };
  h = await harness({ app: { schedulerToken: SCHEDULER, jobs: settings } });
});
afterAll(async () => {
  await h.close_();
  await github.close();
});

describe('flow-tools-sync', () => {
  it('19 WS-511 reads every repository of the configured organization, every page', async () => {
    const names: string[] = [];
    for (let i = 0; i < 130; i += 1) {
      const name = `acme/tool-${String(i).padStart(3, '0')}`;
      github.repo(name, { private: i % 3 === 0 });
      names.push(name);
    }
    github.repo('other/not-ours');
    const r = await h.call('POST', '/internal/jobs/flow-tools-sync', asScheduler);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ organization: 'acme', repositories: 130 });
    // Two pages of GitHub's list (100 a page), both read.
    expect(github.requests.filter((p) => p.startsWith('/orgs/acme/repos')).length).toBe(2);
    const stored = await listFlowToolRepositories(h.db);
    expect(stored.map((x) => x.full_name)).toEqual(names);
    expect(stored.filter((x) => x.private)).toHaveLength(44);
  });

  it('19 WS-511 without an organization nothing is read (503); a GitHub failure records nothing (502)', async () => {
    settings.flowToolsOrg = undefined;
    const before = github.requests.length;
    const none = await h.call('POST', '/internal/jobs/flow-tools-sync', asScheduler);
    expect(none.status).toBe(503);
    expect(none.errors[0]?.code).toBe('flow_tools_not_configured');
    expect(github.requests.length).toBe(before);
    settings.flowToolsOrg = 'acme';
    settings.github = new HttpGithub({ baseUrl: github.url, token: 'wrong' });
    const state = await h.state();
    const refused = await h.call('POST', '/internal/jobs/flow-tools-sync', asScheduler);
    expect(refused.status).toBe(502);
    expect(refused.errors[0]?.code).toBe('code_host_unavailable');
    expect(await h.state()).toEqual(state);
  });
});
