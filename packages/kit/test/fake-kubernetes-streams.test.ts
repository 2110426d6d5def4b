import { WebSocket } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeKubernetes, startFakeKubernetes } from '../src/testing/fake-kubernetes.ts';

/** The fake's streaming and read-only surfaces on the wire: watches, pod logs, metrics.k8s.io, exec. */

const pod = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', labels },
  spec: { containers: [{ name: 'app', image: 'example/app:1' }] },
});

describe('fake Kubernetes API streams', () => {
  let fake: FakeKubernetes;
  beforeAll(async () => {
    fake = await startFakeKubernetes();
    fake.seed(pod('p1', { app: 'a' }));
  });
  afterAll(() => fake.close());

  it('kit fake kubernetes: a watch sends newline-delimited events, selector leaving as DELETED', async () => {
    const abort = new AbortController();
    const res = await fetch(`${fake.url}/api/v1/namespaces/ns/pods?watch=true&labelSelector=app%3Da`, {
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const next = async (n: number) => {
      while (text.split('\n').filter(Boolean).length < n) text += new TextDecoder().decode((await reader.read()).value);
    };
    await next(1);
    fake.modify('Pod', 'ns', 'p1', (p) => {
      p.metadata.labels = { app: 'b' };
    });
    await next(2);
    abort.abort();
    const events = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events.map((e) => [e.type, e.object.kind, e.object.metadata.name])).toEqual([
      ['ADDED', 'Pod', 'p1'],
      ['DELETED', 'Pod', 'p1'],
    ]);
  });

  it('kit fake kubernetes: a pending pod has no log yet; a running one answers text with timestamps and limits', async () => {
    const waiting = await fetch(`${fake.url}/api/v1/namespaces/ns/pods/p1/log`);
    expect(waiting.status).toBe(400);
    expect(((await waiting.json()) as { message: string }).message).toBe(
      'container "app" in pod "p1" is waiting to start: ContainerCreating',
    );
    fake.setStatus('Pod', 'ns', 'p1', { phase: 'Running' });
    fake.appendLog('ns', 'p1', ['alpha', 'beta'], { time: new Date('2026-11-26T10:00:00.123Z') });
    const res = await fetch(`${fake.url}/api/v1/namespaces/ns/pods/p1/log?timestamps=true&tailLines=1`);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('2026-11-26T10:00:00.123000000Z beta\n');
    expect(await (await fetch(`${fake.url}/api/v1/namespaces/ns/pods/p1/log?limitBytes=8`)).text()).toBe('alpha\nbe');
  });

  it('kit fake kubernetes: metrics.k8s.io lists PodMetrics of existing pods only', async () => {
    fake.setPodMetrics('ns', 'p1', [{ name: 'app', usage: { cpu: '3m', memory: '10Mi' } }], {
      time: new Date('2026-11-26T10:00:00Z'),
    });
    fake.setPodMetrics('ns', 'gone', [{ name: 'app', usage: { cpu: '1m', memory: '1Mi' } }]);
    const list = await (await fetch(`${fake.url}/apis/metrics.k8s.io/v1beta1/namespaces/ns/pods`)).json();
    expect(list).toEqual({
      kind: 'PodMetricsList',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {},
      items: [
        {
          metadata: { name: 'p1', namespace: 'ns', creationTimestamp: '2026-11-26T10:00:00Z', labels: { app: 'b' } },
          timestamp: '2026-11-26T10:00:00Z',
          window: '30s',
          containers: [{ name: 'app', usage: { cpu: '3m', memory: '10Mi' } }],
        },
      ],
    });
  });

  it('kit fake kubernetes: exec refuses an absent pod before upgrading and runs a command on v4.channel.k8s.io', async () => {
    const refused = new WebSocket(
      `${fake.url.replace('http', 'ws')}/api/v1/namespaces/ns/pods/absent/exec?command=sh`,
      ['v4.channel.k8s.io'],
    );
    const opened = await new Promise<boolean>((resolve) => {
      refused.onopen = () => resolve(true);
      refused.onerror = () => resolve(false);
    });
    expect(opened).toBe(false);
    expect(fake.requests.at(-1)).toMatchObject({ path: '/api/v1/namespaces/ns/pods/absent/exec', status: 404 });
    const ws = new WebSocket(
      `${fake.url.replace('http', 'ws')}/api/v1/namespaces/ns/pods/p1/exec?command=echo&command=hi&stdout=true`,
      ['v4.channel.k8s.io'],
    );
    ws.binaryType = 'arraybuffer';
    const frames: Buffer[] = [];
    await new Promise<void>((resolve) => {
      ws.onmessage = (m) => frames.push(Buffer.from(m.data as ArrayBuffer));
      ws.onclose = () => resolve();
    });
    expect(ws.protocol).toBe('v4.channel.k8s.io');
    expect(frames.map((f) => [f[0], f.subarray(1).toString()])).toEqual([
      [1, ''],
      [1, 'hi\n'],
      [3, '{"metadata":{},"status":"Success"}'],
    ]);
    expect(fake.execs.at(-1)).toMatchObject({ command: ['echo', 'hi'], tty: false, exitCode: 0, closed: true });
  });
});
