import { PassThrough } from 'node:stream';
import { KubeConfig } from '@kubernetes/client-node';
import { type FakeKubernetes, startFakeKubernetes } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterError, cpuMillicores, memoryBytes, type PodChange, type PodState } from '../src/cluster/client.ts';
import { kubernetesClientFrom } from '../src/cluster/kubernetes.ts';
import { pod, running } from './fakes/cluster.ts';

/**
 * The cluster client (@kubernetes/client-node 1.4) against the kit's fake API server: the real
 * paths, the metrics API, log follow, watches and exec on v4.channel.k8s.io.
 */

/** Collects what arrives and resolves waits once a predicate holds (no sleeping). */
function collector<T>() {
  const items: T[] = [];
  const waits: { check: (items: T[]) => boolean; resolve: () => void }[] = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      for (const w of [...waits]) {
        if (w.check(items)) {
          waits.splice(waits.indexOf(w), 1);
          w.resolve();
        }
      }
    },
    until(check: (items: T[]) => boolean) {
      return new Promise<void>((resolve) => {
        if (check(items)) resolve();
        else waits.push({ check, resolve });
      });
    },
  };
}

describe('cluster client', () => {
  let fake: FakeKubernetes;
  let client: ReturnType<typeof kubernetesClientFrom>;

  beforeAll(async () => {
    fake = await startFakeKubernetes({ token: 'cluster-token' });
    const config = new KubeConfig();
    config.loadFromString(fake.kubeconfig());
    client = kubernetesClientFrom(config);
    fake.seed(pod('shop', 'web-1', { app: 'web' }));
    running(fake, 'shop', 'web-1');
    fake.seed(pod('billing', 'api-1', { app: 'api' }, ['api', 'sidecar']));
    running(fake, 'billing', 'api-1', ['api', 'sidecar']);
    fake.setPodMetrics('shop', 'web-1', [{ name: 'app', usage: { cpu: '12500000n', memory: '64Mi' } }]);
    fake.setPodMetrics('billing', 'api-1', [
      { name: 'api', usage: { cpu: '5m', memory: '1024Ki' } },
      { name: 'sidecar', usage: { cpu: '1m', memory: '1Mi' } },
    ]);
  });
  afterAll(() => fake.close());

  it('21 OPS-050 pods are listed cluster-wide with CPU and memory from metrics.k8s.io', async () => {
    const rows = await client.listPods();
    expect(rows.map((r) => `${r.namespace}/${r.name}`)).toEqual(['billing/api-1', 'shop/web-1']);
    expect(rows[0]).toMatchObject({
      phase: 'Running',
      node: 'node-1',
      ready: '2/2',
      restarts: 2,
      containers: ['api', 'sidecar'],
      cpu_millicores: 6,
      memory_bytes: 2 * 2 ** 20,
    });
    expect(rows[1]).toMatchObject({ cpu_millicores: 12.5, memory_bytes: 64 * 2 ** 20, labels: { app: 'web' } });
    expect(fake.requests.some((r) => r.path === '/api/v1/pods')).toBe(true);
    expect(fake.requests.some((r) => r.path === '/apis/metrics.k8s.io/v1beta1/pods')).toBe(true);
  });

  it('21 OPS-050 events are listed cluster-wide, newest first', async () => {
    for (const [ns, name, reason, last] of [
      ['shop', 'web-1.a', 'Pulled', '2026-11-26T09:00:00Z'],
      ['billing', 'api-1.b', 'BackOff', '2026-11-26T09:05:00Z'],
    ]) {
      fake.seed({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: ns },
        involvedObject: { kind: 'Pod', name: name.split('.')[0], namespace: ns },
        reason,
        message: `${reason} happened`,
        type: reason === 'BackOff' ? 'Warning' : 'Normal',
        firstTimestamp: last,
        lastTimestamp: last,
      });
    }
    const rows = await client.listEvents();
    expect(rows.map((r) => [r.namespace, r.reason, r.type])).toEqual([
      ['billing', 'BackOff', 'Warning'],
      ['shop', 'Pulled', 'Normal'],
    ]);
    expect(rows[0]).toMatchObject({
      object: { kind: 'Pod', name: 'api-1', namespace: 'billing' },
      message: 'BackOff happened',
      count: 1,
      last_seen: '2026-11-26T09:05:00.000Z',
    });
  });

  it('21 OPS-050 a pod log reads the container, tail lines and a clear error for an absent pod or container', async () => {
    fake.appendLog('shop', 'web-1', ['one', 'two', 'three']);
    expect(await client.readLog('shop', 'web-1', {})).toBe('one\ntwo\nthree\n');
    expect(await client.readLog('shop', 'web-1', { tailLines: 2 })).toBe('two\nthree\n');
    fake.appendLog('billing', 'api-1', 'from the sidecar', { container: 'sidecar' });
    expect(await client.readLog('billing', 'api-1', { container: 'sidecar' })).toBe('from the sidecar\n');
    await expect(client.readLog('billing', 'api-1', {})).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('a container name must be specified'),
    });
    await expect(client.readLog('shop', 'absent', {})).rejects.toEqual(
      new ClusterError(404, 'pods "absent" not found'),
    );
  });

  it('21 OPS-050 a log follow sees lines as they are written and ends when the pod goes', async () => {
    fake.seed(pod('shop', 'follow-1'));
    running(fake, 'shop', 'follow-1');
    fake.appendLog('shop', 'follow-1', ['before 1', 'before 2']);
    const lines = collector<string>();
    const ended = client.followLog(
      'shop',
      'follow-1',
      { container: 'app', tailLines: 1 },
      (ls) => {
        for (const l of ls) lines.push(l);
      },
      new AbortController().signal,
    );
    await lines.until((l) => l.length === 1);
    fake.appendLog('shop', 'follow-1', 'after');
    await lines.until((l) => l.length === 2);
    fake.remove('Pod', 'shop', 'follow-1');
    await ended;
    expect(lines.items).toEqual(['before 2', 'after']);
  });

  it('21 OPS-050 a watch lists the matching pods, then their changes, and stops on abort', async () => {
    fake.seed(pod('watch', 'w-1', { app: 'w' }));
    fake.seed(pod('watch', 'other', { app: 'other' }));
    const changes = collector<[PodChange, PodState]>();
    const abort = new AbortController();
    const watching = client.watchPods('watch', 'app=w', (c, p) => changes.push([c, p]), abort.signal);
    await changes.until((c) => c.length === 1);
    running(fake, 'watch', 'w-1');
    // The server ends the watch (its time is up): the client watches again from where it was.
    fake.endWatches();
    await fake.untilStreams((s) => s.watches === 0);
    await fake.untilStreams((s) => s.watches === 1);
    expect(fake.requests.at(-1)?.query.resourceVersion).toMatch(/^\d+$/);
    fake.seed(pod('watch', 'w-2', { app: 'w' }));
    fake.remove('Pod', 'watch', 'w-1');
    await changes.until((c) => c.length === 4);
    abort.abort();
    await watching;
    expect(changes.items.map(([c, p]) => [c, p.name, p.phase])).toEqual([
      ['added', 'w-1', 'Pending'],
      ['modified', 'w-1', 'Running'],
      ['added', 'w-2', 'Pending'],
      ['deleted', 'w-1', 'Running'],
    ]);
    await fake.untilStreams((s) => s.watches === 0);
  });

  it('21 OPS-056 exec runs bash on v4.channel.k8s.io and echoes what is typed', async () => {
    const stdin = new PassThrough();
    const out = collector<string>();
    const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c.toString()));
    const result = client.exec(
      'shop',
      'web-1',
      undefined,
      [['bash'], ['sh']],
      () => ({ stdin, stdout }),
      (s) => s.resize({ cols: 100, rows: 30 }),
    );
    await out.until((o) => o.join('').includes('$ '));
    stdin.write('echo hello\r');
    await out.until((o) => o.join('').includes('hello\r\n$ '));
    stdin.write('exit 3\r');
    expect(await result).toMatchObject({ command: ['bash'], exitCode: 3 });
    const session = fake.execs.at(-1)!;
    expect(session).toMatchObject({
      pod: 'web-1',
      container: 'app',
      command: ['bash'],
      tty: true,
      protocol: 'v4.channel.k8s.io',
    });
    expect(session.resizes).toEqual([{ Width: 100, Height: 30 }]);
  });

  it('21 OPS-056 exec falls back to sh when the image has no bash', async () => {
    fake.setExecutables('billing', 'api-1', ['sh']);
    const stdin = new PassThrough();
    const out = collector<string>();
    const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c.toString()));
    const inputs: PassThrough[] = [];
    const result = client.exec('billing', 'api-1', 'api', [['bash'], ['sh']], () => {
      const s = new PassThrough();
      inputs.push(s);
      return { stdin: s, stdout };
    });
    await out.until((o) => o.join('').includes('$ '));
    expect(inputs).toHaveLength(2);
    inputs[1].write('exit\r');
    expect(await result).toMatchObject({ command: ['sh'], exitCode: 0 });
    expect(fake.execs.slice(-2).map((e) => e.command)).toEqual([['bash'], ['sh']]);
    stdin.end();
  });

  it('21 OPS-050 quantities convert as Kubernetes writes them', () => {
    expect([cpuMillicores('250m'), cpuMillicores('0.5'), cpuMillicores('1500000n'), cpuMillicores('2')]).toEqual([
      250, 500, 1.5, 2000,
    ]);
    expect([memoryBytes('1Ki'), memoryBytes('2Mi'), memoryBytes('1G'), memoryBytes('1000')]).toEqual([
      1024,
      2 * 2 ** 20,
      1e9,
      1000,
    ]);
  });
});
