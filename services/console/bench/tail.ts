import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchRun, benchEnv, gatewayKeys, median, round, startFakeKubernetes } from '@platform/kit/testing';
import { buildApp } from '../src/app.ts';
import { consoleAuthenticator } from '../src/auth.ts';
import { consoleConfig } from '../src/config.ts';
import { registryFromConfig } from '../src/start.ts';

/**
 * Tail throughput: BENCH_TAIL_LINES (50,000) lines written to a pod's log in BENCH_TAIL_BATCHES
 * (100) batches while a reader follows it, read straight from the fake API server (GET
 * .../log?follow=true) and through the console's SSE tail (P/pods/{namespace}/{pod}/logs/tail,
 * the console following the pod's log and writing one event per line); lines per second each
 * way over BENCH_TAIL_ROUNDS (5) alternating rounds, the ratio the median of the rounds' (goal >= 0.5).
 */

const ISSUER = 'https://gateway.bench.test';
const AUD = 'console-bench';
const VIEWER = 'bench.viewer@ops.test';
const BATCHES = benchEnv.num('BENCH_TAIL_BATCHES', 100);

const count = (text: string, needle: string) => text.split(needle).length - 1;

export async function benchTail(run: BenchRun) {
  const lines = benchEnv.num('BENCH_TAIL_LINES', 50_000);
  const rounds = benchEnv.num('BENCH_TAIL_ROUNDS', 5);
  const fake = await startFakeKubernetes();
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, fake.kubeconfig());
  const line = (i: number) =>
    `2026-11-26T10:00:00.000Z INFO request ${i} GET /v1/things?page=${i % 50} 200 ${i % 97} ms user=u${i % 13}`;
  // the log starts empty: the readers follow it as lines are written

  const keys = await gatewayKeys({ issuer: ISSUER, audience: AUD });
  const config = consoleConfig({
    ENV: 'dev',
    LOG_LEVEL: 'silent',
    CONSOLE_ACCESS_AUD: AUD,
    GATEWAY_ISSUER: ISSUER,
    US_CORE_KUBECONFIG: kubeconfig,
  });
  const app = await buildApp({
    config,
    authenticator: consoleAuthenticator(config, { gatewayJwks: keys.jwks }),
    registry: registryFromConfig(config, {}),
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await keys.token(VIEWER);

  /**
   * One measure: `open` starts a reader of the pod's log (following it, no backlog); once the fake
   * holds its follow, BATCHES batches of lines are appended (the next after the reader has taken
   * the previous one's), and the clock runs until the reader has seen every line.
   */
  const batch = Math.max(1, Math.floor(lines / BATCHES));
  let seq = 0;
  let pods = 0;
  /** A fresh running pod per measure: its log is empty when the reader starts following it. */
  const freshPod = () => {
    const name = `web-${++pods}`;
    fake.seed({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'bench' },
      spec: { containers: [{ name: 'app', image: 'example/app:1' }] },
    });
    fake.setStatus('Pod', 'bench', name, { phase: 'Running' });
    return name;
  };
  const measure = async (open: (pod: string, signal: AbortSignal) => Promise<Response>, marker: string) => {
    const pod = freshPod();
    const abort = new AbortController();
    const follows = fake.openStreams().follows;
    const res = await open(pod, abort.signal);
    await fake.untilStreams((s) => s.follows > follows);
    const decoder = new TextDecoder();
    let seen = 0;
    let rest = '';
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const t0 = performance.now();
    for (let sent = 0; sent < lines; ) {
      const n = Math.min(batch, lines - sent);
      fake.appendLog(
        'bench',
        pod,
        Array.from({ length: n }, () => line(seq++)),
      );
      sent += n;
      while (seen < sent) {
        const { value, done } = await reader.read();
        if (done) throw new Error('tail bench: the stream ended early');
        const text = rest + decoder.decode(value, { stream: true });
        const cut = text.lastIndexOf('\n');
        rest = text.slice(cut + 1);
        seen += count(text.slice(0, cut + 1), marker);
      }
    }
    const perSecond = seen / ((performance.now() - t0) / 1000);
    abort.abort();
    await fake.untilStreams((s) => s.follows === follows);
    return { seen, perSecond };
  };
  const direct = () =>
    measure(
      (pod, signal) => fetch(`${fake.url}/api/v1/namespaces/bench/pods/${pod}/log?follow=true`, { signal }),
      '\n',
    );
  const sse = () =>
    measure(
      (pod, signal) =>
        fetch(`${base}/v1/environments/us/core/pods/bench/${pod}/logs/tail?access_token=${token}`, {
          signal,
        }),
      'event: line\n',
    );

  try {
    await direct();
    await sse();
    const ratios: number[] = [];
    const fakeRates: number[] = [];
    const sseRates: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const a = r % 2 === 0 ? await direct() : undefined;
      const b = await sse();
      const c = a ?? (await direct());
      if (b.seen !== lines || c.seen !== lines)
        throw new Error(`tail bench: saw ${b.seen} / ${c.seen} of ${lines} lines`);
      fakeRates.push(c.perSecond);
      sseRates.push(b.perSecond);
      ratios.push(b.perSecond / c.perSecond);
      run.log(`tail round ${r + 1}: fake ${round(c.perSecond, 0)} lines/s, SSE ${round(b.perSecond, 0)} lines/s`);
    }
    const ratio = round(median(ratios));
    run.section('fake cluster');
    run.row(`tail ${lines} lines: straight from the fake`, `${round(median(fakeRates), 0)} lines/s`);
    run.row(`tail ${lines} lines: via the console's SSE`, `${round(median(sseRates), 0)} lines/s`);
    run.row('tail SSE / fake', String(ratio), '>= 0.5', run.goal('tail_ratio', ratio >= 0.5));
    return {
      lines,
      rounds,
      fake_lines_per_s: round(median(fakeRates), 0),
      sse_lines_per_s: round(median(sseRates), 0),
      ratio,
      goal: 0.5,
    };
  } finally {
    await app.close();
    await fake.close();
  }
}
