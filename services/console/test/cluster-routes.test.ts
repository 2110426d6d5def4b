import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeKubernetes, startFakeKubernetes, WebSocket } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, running } from './fakes/cluster.ts';
import { type Caller, consoleHarness, type Harness } from './harness.ts';

/**
 * The cluster surfaces over HTTP against the kit's fake API server, reached through a kubeconfig
 * file named by US_CORE_KUBECONFIG (eu/core has none: 501). Tails and the terminal run on a
 * listening console, as a browser reaches them.
 */

const US = '/v1/environments/us/core';
const EU = '/v1/environments/eu/core';

interface SseEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: events are read loosely, as the page does.
  data: any;
}

/** Reads a text/event-stream as it arrives; `until` resolves once the events so far satisfy a check. */
async function openTail(url: string) {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal });
  const events: SseEvent[] = [];
  const waits: { check: (e: SseEvent[]) => boolean; resolve: () => void }[] = [];
  let closed = false;
  const finished = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let at = buffer.indexOf('\n\n');
        while (at >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) events.push({ event, data: JSON.parse(data) });
          for (const w of [...waits])
            if (w.check(events)) {
              waits.splice(waits.indexOf(w), 1);
              w.resolve();
            }
          at = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by the test
    }
    closed = true;
  })();
  return {
    res,
    events,
    lines: () => events.filter((e) => e.event === 'line').map((e) => `${e.data.pod}: ${e.data.line}`),
    until: (check: (e: SseEvent[]) => boolean) =>
      new Promise<void>((resolve) => (check(events) ? resolve() : waits.push({ check, resolve }))),
    close: () => abort.abort(),
    finished,
    get closed() {
      return closed;
    },
  };
}

/** An upgrade request as a browser's WebSocket makes it, answered with a status (a refusal) or 101. */
function upgradeStatus(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A connection of its own, as a browser opens for each WebSocket (the console drops it after a refusal).
    const req = request(url, {
      agent: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a terminal as the web UI does; resolves with what came back and how the socket closed. */
function terminal(url: string) {
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  let output = '';
  const waits: { check: (o: string) => boolean; resolve: () => void }[] = [];
  ws.onmessage = (m) => {
    output += typeof m.data === 'string' ? m.data : Buffer.from(m.data as ArrayBuffer).toString();
    for (const w of [...waits])
      if (w.check(output)) {
        waits.splice(waits.indexOf(w), 1);
        w.resolve();
      }
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.onclose = (e) => resolve({ code: e.code, reason: e.reason });
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('the terminal did not open'));
  });
  return {
    ws,
    opened,
    closed,
    output: () => output,
    until: (check: (o: string) => boolean) =>
      new Promise<void>((resolve) => (check(output) ? resolve() : waits.push({ check, resolve }))),
  };
}

describe('21 cluster surfaces', () => {
  let fake: FakeKubernetes;
  let h: Harness;
  let base: string;
  const token = (who: Exclude<Caller, 'none'>) => h.tokens[who];

  beforeAll(async () => {
    fake = await startFakeKubernetes({ token: 'console-sa-token' });
    const dir = mkdtempSync(join(tmpdir(), 'console-cluster-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, fake.kubeconfig());
    h = await consoleHarness({ env: { US_CORE_KUBECONFIG: kubeconfig, EU_CORE_KUBECONFIG: undefined } });
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    fake.seed(pod('shop', 'web-1', { app: 'web' }));
    running(fake, 'shop', 'web-1');
    fake.seed(pod('shop', 'db-1', { app: 'db' }));
    running(fake, 'shop', 'db-1');
    fake.seed(pod('billing', 'api-1', { app: 'api' }));
    running(fake, 'billing', 'api-1');
    fake.setPodMetrics('billing', 'api-1', [{ name: 'app', usage: { cpu: '250m', memory: '128Mi' } }]);
    fake.seed({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'api-1.1', namespace: 'billing' },
      involvedObject: { kind: 'Pod', name: 'api-1', namespace: 'billing' },
      reason: 'Started',
      message: 'Started container app',
      lastTimestamp: '2026-11-26T09:00:00Z',
    });
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
  });

  it('21 OPS-050 a viewer reads pods cluster-wide with CPU and memory, the events and a pod log', async () => {
    const pods = await h.app.inject({ method: 'GET', url: `${US}/pods`, headers: h.headers('viewer') });
    expect(pods.statusCode).toBe(200);
    const rows = pods.json().payload.data;
    expect(rows.map((r: { namespace: string; name: string }) => `${r.namespace}/${r.name}`)).toEqual([
      'billing/api-1',
      'shop/db-1',
      'shop/web-1',
    ]);
    expect(rows[0]).toMatchObject({ phase: 'Running', cpu_millicores: 250, memory_bytes: 128 * 2 ** 20 });
    expect(rows[1]).toMatchObject({ cpu_millicores: null, memory_bytes: null });

    const events = await h.app.inject({ method: 'GET', url: `${US}/events`, headers: h.headers('viewer') });
    expect(events.json().payload.data).toEqual([
      expect.objectContaining({
        namespace: 'billing',
        reason: 'Started',
        object: expect.objectContaining({ name: 'api-1' }),
      }),
    ]);

    fake.appendLog('shop', 'web-1', ['GET / 200', 'GET /health 200']);
    const logs = await h.app.inject({
      method: 'GET',
      url: `${US}/pods/shop/web-1/logs?tail_lines=1`,
      headers: h.headers('viewer'),
    });
    expect(logs.json().payload.data).toEqual({
      namespace: 'shop',
      pod: 'web-1',
      container: 'app',
      lines: ['GET /health 200'],
    });
  });

  it('21 OPS-050 an absent pod is 404, a bad selector or container 422, before any stream opens', async () => {
    const absent = await h.app.inject({
      method: 'GET',
      url: `${US}/pods/shop/nope/logs`,
      headers: h.headers('viewer'),
    });
    expect([absent.statusCode, absent.json().payload.errors[0].code]).toEqual([404, 'pod_not_found']);
    const selector = await fetch(
      `${base}${US}/namespaces/shop/logs/tail?selector=${encodeURIComponent('a b=c')}&access_token=${token('viewer')}`,
    );
    expect(selector.status).toBe(422);
    expect(((await selector.json()) as { payload: { errors: { code: string }[] } }).payload.errors[0].code).toBe(
      'cluster_refused',
    );
    const container = await fetch(
      `${base}${US}/pods/shop/web-1/logs/tail?container=other&access_token=${token('viewer')}`,
    );
    expect(container.status).toBe(422);
  });

  it('21 OPS-062 an unset kubeconfig is 501 cluster_not_configured on every cluster surface, the terminal included', async () => {
    for (const url of [`${EU}/pods`, `${EU}/events`, `${EU}/pods/shop/web-1/logs`]) {
      const res = await h.app.inject({ method: 'GET', url, headers: h.headers('viewer') });
      expect([res.statusCode, res.json().payload.errors[0].code], url).toEqual([501, 'cluster_not_configured']);
    }
    const tail = await fetch(`${base}${EU}/pods/shop/web-1/logs/tail?access_token=${token('viewer')}`);
    expect(tail.status).toBe(501);
    const exec = await upgradeStatus(`${base}${EU}/pods/shop/web-1/exec?access_token=${token('admin')}`);
    expect(exec.status).toBe(501);
    expect(JSON.parse(exec.body).payload.errors[0].code).toBe('cluster_not_configured');
  });

  it('21 OPS-014 OPS-017 a pod tail is server-sent events admitted by ?access_token and sees a new line arrive', async () => {
    fake.seed(pod('shop', 'tail-1', { app: 'tail' }));
    running(fake, 'shop', 'tail-1');
    fake.appendLog('shop', 'tail-1', ['old 1', 'old 2']);
    const tail = await openTail(`${base}${US}/pods/shop/tail-1/logs/tail?tail_lines=1&access_token=${token('viewer')}`);
    expect(tail.res.status).toBe(200);
    expect(tail.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await tail.until((e) => e.some((x) => x.event === 'line'));
    fake.appendLog('shop', 'tail-1', 'new line');
    await tail.until((e) => e.filter((x) => x.event === 'line').length === 2);
    fake.remove('Pod', 'shop', 'tail-1');
    await tail.until((e) => e.some((x) => x.event === 'end'));
    expect(tail.lines()).toEqual(['tail-1: old 2', 'tail-1: new line']);
    expect(tail.events.map((e) => e.event)).toEqual(['pod', 'line', 'line', 'pod', 'end']);
    await tail.finished;
  });

  it("21 OPS-014 a namespace tail follows the selector's pods as they come and go, lines tagged by pod", async () => {
    fake.seed(pod('jobs', 'worker-a', { app: 'worker' }));
    running(fake, 'jobs', 'worker-a');
    fake.seed(pod('jobs', 'cron-a', { app: 'cron' }));
    running(fake, 'jobs', 'cron-a');
    fake.appendLog('jobs', 'worker-a', ['a: before']);
    fake.appendLog('jobs', 'cron-a', ['not followed']);
    const tail = await openTail(
      `${base}${US}/namespaces/jobs/logs/tail?selector=app%3Dworker&access_token=${token('viewer')}`,
    );
    expect(tail.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await tail.until((e) => e.some((x) => x.event === 'line'));

    // A pod that comes: pending first (no log yet), followed from its first line once running.
    fake.seed(pod('jobs', 'worker-b', { app: 'worker' }));
    fake.appendLog('jobs', 'worker-b', ['b: first']);
    running(fake, 'jobs', 'worker-b');
    await tail.until((e) => e.some((x) => x.event === 'line' && x.data.pod === 'worker-b'));
    fake.appendLog('jobs', 'worker-b', 'b: second');
    fake.appendLog('jobs', 'cron-a', 'still not followed');
    await tail.until((e) => e.filter((x) => x.event === 'line').length === 3);

    // A pod that goes.
    fake.remove('Pod', 'jobs', 'worker-a');
    await tail.until((e) => e.some((x) => x.event === 'pod' && x.data.pod === 'worker-a' && x.data.state === 'ended'));
    fake.appendLog('jobs', 'worker-b', 'b: third');
    await tail.until((e) => e.filter((x) => x.event === 'line').length === 4);
    expect(tail.lines()).toEqual([
      'worker-a: a: before',
      'worker-b: b: first',
      'worker-b: b: second',
      'worker-b: b: third',
    ]);
    tail.close();
    await tail.finished;
    // The console lets go of the cluster's streams when the browser goes.
    await fake.untilStreams((s) => s.watches === 0 && s.follows === 0);
  });

  it('21 OPS-056 an engineer or viewer terminal is 403 and the cluster sees no exec; no token or a forged one 401', async () => {
    const execsBefore = fake.execs.length;
    const requestsBefore = fake.requests.filter((r) => r.subresource === 'exec').length;
    for (const [who, status] of [
      ['engineer', 403],
      ['viewer', 403],
      ['forged', 401],
    ] as const) {
      const res = await upgradeStatus(`${base}${US}/pods/shop/web-1/exec?access_token=${token(who)}`);
      expect(res.status, who).toBe(status);
      expect(JSON.parse(res.body).payload.errors[0].code, who).toBe(
        status === 403 ? 'insufficient_role' : 'unauthenticated',
      );
    }
    expect((await upgradeStatus(`${base}${US}/pods/shop/web-1/exec`)).status).toBe(401);
    expect(fake.execs.length).toBe(execsBefore);
    expect(fake.requests.filter((r) => r.subresource === 'exec').length).toBe(requestsBefore);
  });

  it('21 OPS-015 OPS-056 OPS-060 an admin terminal is a WebSocket running bash that echoes; sh when the image has no bash', async () => {
    const t = terminal(`${base.replace('http', 'ws')}${US}/pods/shop/web-1/exec?access_token=${token('admin')}`);
    await t.opened;
    await t.until((o) => o.includes('$ '));
    t.ws.send('echo hello from the pod\r');
    await t.until((o) => o.includes('hello from the pod\r\n$ '));
    t.ws.send('exit 0\r');
    expect(await t.closed).toEqual({ code: 1000, reason: 'exit 0' });
    expect(fake.execs.at(-1)).toMatchObject({
      pod: 'web-1',
      command: ['bash'],
      tty: true,
      protocol: 'v4.channel.k8s.io',
    });
    // Logged as a write, before the exec started (OPS-060).
    expect(h.log.writes()).toContainEqual(
      expect.objectContaining({ action: 'pod.exec', actor: 'admin@ops.test', target: 'us/core/shop/web-1' }),
    );

    fake.setExecutables('billing', 'api-1', ['sh']);
    const s = terminal(`${base.replace('http', 'ws')}${US}/pods/billing/api-1/exec?access_token=${token('both')}`);
    await s.until((o) => o.includes('$ '));
    s.ws.send('exit 2\r');
    expect(await s.closed).toEqual({ code: 1000, reason: 'exit 2' });
    expect(fake.execs.slice(-2).map((e) => e.command)).toEqual([['bash'], ['sh']]);
  });

  it('21 OPS-016 OPS-018 tail and terminal are outside the OpenAPI; a query token admits no one on the pod list; no log line holds a token', async () => {
    const paths = Object.keys((h.app as unknown as { swagger(): { paths: object } }).swagger().paths);
    expect(paths).toContain('/v1/environments/{region}/{subscription}/pods');
    for (const hidden of [
      '/v1/environments/{region}/{subscription}/pods/{namespace}/{pod}/logs/tail',
      '/v1/environments/{region}/{subscription}/namespaces/{namespace}/logs/tail',
      '/v1/environments/{region}/{subscription}/pods/{namespace}/{pod}/exec',
    ])
      expect(paths).not.toContain(hidden);
    const byQuery = await fetch(`${base}${US}/pods?access_token=${token('admin')}`);
    expect(byQuery.status).toBe(401);
    const raw = h.log.raw.join('\n');
    for (const who of ['viewer', 'admin', 'engineer', 'both'] as const) expect(raw).not.toContain(token(who));
    expect(raw).toContain('access_token=[redacted]');
  });
});
