import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeHelm, release } from './fakes/helm.ts';
import { consoleHarness, type Harness } from './harness.ts';

/**
 * Releases against the fake `helm` executable (test/fixtures/fake-helm.mjs): the console runs it
 * by HELM_BIN through execFile, exactly as it would run Helm 3, and the fake records every argv.
 */
let h: Harness;
let helm: ReturnType<typeof fakeHelm>;
let calls0 = 0;
const P = '/v1/environments/us/core/releases';
const newCalls = () => helm.calls().slice(calls0);

beforeAll(async () => {
  helm = fakeHelm([release('apps', 'web', 3), release('platform', 'console', 1)]);
  process.env.FAKE_HELM_STATE = helm.env.FAKE_HELM_STATE;
  process.env.FAKE_HELM_CALLS = helm.env.FAKE_HELM_CALLS;
  h = await consoleHarness({
    env: { US_CORE_KUBECONFIG: helm.kubeconfig, HELM_BIN: helm.bin, HELM_TIMEOUT_MS: '20000' },
  });
});
afterAll(() => h.close());
beforeEach(() => {
  calls0 = helm.calls().length;
  delete process.env.FAKE_HELM_FAIL_ROLLBACK;
});

const rollback = (who: Parameters<Harness['headers']>[0], ns: string, name: string, revision: number, key?: string) =>
  h.app.inject({
    method: 'POST',
    url: `${P}/${encodeURIComponent(ns)}/${encodeURIComponent(name)}/rollback`,
    headers: h.writeHeaders(who, key),
    payload: { data: { revision }, why: { code: 'incident', detail: 'bad deploy' } },
  });

describe('21 releases through helm', () => {
  it('21 OPS-019 the list and a history are read from helm -o json, with the subscription kubeconfig', async () => {
    const list = await h.app.inject({ method: 'GET', url: P, headers: h.headers('viewer') });
    expect(list.statusCode).toBe(200);
    const rows = list.json().payload.data;
    expect(rows.map((r: { name: string; revision: number }) => [r.name, r.revision])).toEqual([
      ['web', 3],
      ['console', 1],
    ]);
    expect(rows[0]).toMatchObject({ namespace: 'apps', status: 'deployed', chart: 'web-1.2.0', app_version: '1.2.0' });
    const hist = await h.app.inject({ method: 'GET', url: `${P}/apps/web/history`, headers: h.headers('viewer') });
    expect(hist.statusCode).toBe(200);
    expect(hist.json().payload.data.map((r: { revision: number; status: string }) => [r.revision, r.status])).toEqual([
      [1, 'superseded'],
      [2, 'superseded'],
      [3, 'deployed'],
    ]);
    expect(newCalls()).toEqual([
      ['list', '--all-namespaces', '--all', '--max', '1000', '--output', 'json', '--kubeconfig', helm.kubeconfig],
      ['history', 'web', '--namespace', 'apps', '--max', '256', '--output', 'json', '--kubeconfig', helm.kubeconfig],
    ]);
  });

  it('21 OPS-020 Bad_Name, a;id, $(id), ../x and 54 characters are 422 and Helm never runs', async () => {
    for (const name of ['Bad_Name', 'a;id', '$(id)', '../x', 'a'.repeat(54), '-x', 'x.']) {
      const hist = await h.app.inject({
        method: 'GET',
        url: `${P}/apps/${encodeURIComponent(name)}/history`,
        headers: h.headers('viewer'),
      });
      expect(hist.statusCode, name).toBe(422);
      expect(hist.json().payload.errors[0].code).toBe('invalid_release_name');
      const rb = await rollback('admin', 'apps', name, 1);
      expect(rb.statusCode, name).toBe(422);
      expect(rb.json().payload.errors[0].code).toBe('invalid_release_name');
    }
    for (const ns of ['Apps', 'a;id', '$(id)', '../x', 'a.b', 'a'.repeat(64)]) {
      const rb = await rollback('admin', ns, 'web', 1);
      expect(rb.statusCode, ns).toBe(422);
      expect(rb.json().payload.errors[0].code).toBe('invalid_namespace');
    }
    expect(newCalls()).toEqual([]);
    expect(h.log.writes()).toEqual([]);
    // 53 characters is Helm's limit and passes the check (Helm then runs and knows no such release).
    const ok = await h.app.inject({
      method: 'GET',
      url: `${P}/apps/${'a'.repeat(53)}/history`,
      headers: h.headers('viewer'),
    });
    expect(ok.statusCode).toBe(404);
    expect(ok.json().payload.errors[0].code).toBe('release_not_found');
    expect(newCalls()).toHaveLength(1);
  });

  it("21 OPS-057 an engineer's rollback is 403 and Helm never runs; a viewer's likewise", async () => {
    for (const who of ['engineer', 'viewer'] as const) {
      const res = await rollback(who, 'apps', 'web', 2);
      expect(res.statusCode).toBe(403);
      expect(res.json().payload.errors[0].code).toBe('insufficient_role');
    }
    expect(newCalls()).toEqual([]);
    expect(helm.releases()[0].history).toHaveLength(3);
  });

  it('21 OPS-020 a revision not in the history, or the deployed one, is 422 and no rollback runs', async () => {
    const missing = await rollback('admin', 'apps', 'web', 9);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload.errors[0].code).toBe('revision_not_in_history');
    const deployed = await rollback('admin', 'apps', 'web', 3);
    expect(deployed.statusCode).toBe(422);
    expect(deployed.json().payload.errors[0].code).toBe('revision_is_deployed');
    expect(newCalls().map((c) => c[0])).toEqual(['history', 'history']);
    const zero = await rollback('admin', 'apps', 'web', 0);
    expect(zero.statusCode).toBe(422);
    expect(helm.releases()[0].history).toHaveLength(3);
  });

  it("21 OPS-057 OPS-019 OPS-003 OPS-004 OPS-060 an admin's rollback runs once per key, is logged first, and its outcome comes from helm history", async () => {
    const noKey = await h.app.inject({
      method: 'POST',
      url: `${P}/apps/web/rollback`,
      headers: { ...h.headers('admin'), 'content-type': 'application/json' },
      payload: { data: { revision: 2 } },
    });
    expect(noKey.statusCode).toBe(400);
    expect(newCalls()).toEqual([]);

    const writes0 = h.log.writes().length;
    const res = await rollback('admin', 'apps', 'web', 2, 'rb-1');
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.data).toEqual({
      namespace: 'apps',
      name: 'web',
      rolled_back_to: 2,
      revision: 4,
      status: 'deployed',
      description: 'Rollback to 2',
      chart: 'web-1.1.0',
      app_version: '1.1.0',
    });
    expect(newCalls()).toEqual([
      ['history', 'web', '--namespace', 'apps', '--max', '256', '--output', 'json', '--kubeconfig', helm.kubeconfig],
      ['rollback', 'web', '2', '--namespace', 'apps', '--wait', '--timeout', '15s', '--kubeconfig', helm.kubeconfig],
      ['history', 'web', '--namespace', 'apps', '--max', '256', '--output', 'json', '--kubeconfig', helm.kubeconfig],
    ]);
    const line = h.log.writes().slice(writes0);
    expect(line).toHaveLength(1);
    expect(line[0]).toMatchObject({
      actor: 'admin@ops.test',
      action: 'release.rollback',
      target: 'us/core/releases/apps/web@2',
      why: { code: 'incident', detail: 'bad deploy' },
    });

    // The same key and body again: the first answer, and Helm does not run again.
    const again = await rollback('admin', 'apps', 'web', 2, 'rb-1');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().payload.data.revision).toBe(4);
    expect(newCalls()).toHaveLength(3);
    expect(helm.releases()[0].history).toHaveLength(4);
  });

  it('21 OPS-060 a rollback Helm fails is logged before the attempt and answers 502 with its error line', async () => {
    process.env.FAKE_HELM_FAIL_ROLLBACK = '1';
    const writes0 = h.log.writes().length;
    const res = await rollback('both', 'apps', 'web', 1);
    expect(res.statusCode).toBe(502);
    expect(res.json().payload.errors[0]).toMatchObject({
      code: 'release_manager_failed',
      message: 'helm rollback failed: Error: timed out waiting for the condition',
    });
    expect(h.log.writes().slice(writes0)).toMatchObject([
      { actor: 'both@ops.test', action: 'release.rollback', target: 'us/core/releases/apps/web@1' },
    ]);
    const hist = await h.app.inject({ method: 'GET', url: `${P}/apps/web/history`, headers: h.headers('viewer') });
    expect(hist.json().payload.data.at(-1)).toMatchObject({ revision: 5, status: 'failed' });
  });

  it('21 OPS-057 a subscription without a kubeconfig answers 501 cluster_not_configured and Helm never runs', async () => {
    const list = await h.app.inject({
      method: 'GET',
      url: '/v1/environments/eu/core/releases',
      headers: h.headers('viewer'),
    });
    expect(list.statusCode).toBe(501);
    expect(list.json().payload.errors[0].code).toBe('cluster_not_configured');
    const rb = await h.app.inject({
      method: 'POST',
      url: '/v1/environments/eu/core/releases/apps/web/rollback',
      headers: h.writeHeaders('admin'),
      payload: { data: { revision: 1 } },
    });
    expect(rb.statusCode).toBe(501);
    expect(newCalls()).toEqual([]);
  });
});
