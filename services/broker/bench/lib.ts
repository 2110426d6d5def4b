import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from '@platform/kit/testing';
import type { Dispatcher } from 'undici';
import { BUILT_IN_CATALOG, type Catalog, type CatalogModel } from '../src/domain/catalog.ts';

/** The key the fake provider demands and the relay's provider endpoint holds. */
export const PROVIDER_KEY = 'bench-provider-key';
/** Who calls the relay (X-Dev-Principal): a person, who may relay. */
export const BENCH_CALLER = 'bench.caller@broker.test';

/**
 * The model the bench asks for: an OpenAI chat model in no routing family, so routing keeps it
 * and the relay forwards the caller's bytes as they are. Priced as GPT-4o mini: a bench run
 * stays far below the default monthly budget.
 */
export const BENCH_MODEL: CatalogModel = {
  provider: 'openai',
  wire_id: 'bench-chat',
  name: 'Bench chat (no routing family)',
  context_window: 128_000,
  max_output_tokens: 16_384,
  prices: { input: 150_000, output: 600_000, cache_read: 75_000 },
};

export const benchCatalog = (): Catalog => ({
  ...BUILT_IN_CATALOG,
  models: [...BUILT_IN_CATALOG.models, BENCH_MODEL],
});

const PROMPT =
  'Summarise the following note for a colleague in two sentences. The quarterly close moved to the ' +
  'second week of the month because the bank statements arrive late; reconciliations of the three ' +
  'operating accounts are now done by the accountant on duty, and the controller reviews them before ' +
  'the ledger is locked. Questions go to the finance channel, not to personal messages, so that the ' +
  'answers stay findable for the next person who has the same question.';

/** A chat completion request as a client sends it; streamed ones ask for the usage chunk. */
export function chatBody(stream: boolean): string {
  return JSON.stringify({
    model: BENCH_MODEL.wire_id,
    messages: [
      { role: 'system', content: 'You are a concise assistant for a finance team.' },
      { role: 'user', content: PROMPT },
    ],
    max_tokens: 256,
    temperature: 0.2,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

export type TargetName = 'direct' | 'relay' | 'portkey' | 'bare';

/** One way to reach the fake provider's chat completions: the server, path and headers. */
export interface Target {
  name: TargetName;
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** The process serving `origin` (its CPU time is read from /proc). */
  pid: number;
}

/**
 * One chat completion through `d`: the whole answer is read; anything but a 200 (or a stream
 * that does not end with `data: [DONE]`) throws. Returns the answer's size in bytes.
 */
export async function chatCall(d: Dispatcher, t: Target, body: string, stream: boolean): Promise<number> {
  const res = await d.request({
    method: 'POST',
    path: t.path,
    headers: { ...t.headers, 'content-type': 'application/json', accept: stream ? 'text/event-stream' : JSON_TYPE },
    body,
  });
  let bytes = 0;
  let tail = '';
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (stream) tail = (tail + chunk.toString('latin1')).slice(-32);
  }
  if (res.statusCode !== 200) throw new Error(`${t.name}: status ${res.statusCode}`);
  if (stream && !tail.trimEnd().endsWith('data: [DONE]'))
    throw new Error(`${t.name}: the stream did not end with [DONE]`);
  return bytes;
}

const JSON_TYPE = 'application/json';

/** One call's status, content type and body bytes (the checks before measuring). */
export async function chatBytes(d: Dispatcher, t: Target, body: string) {
  const res = await d.request({
    method: 'POST',
    path: t.path,
    headers: { ...t.headers, 'content-type': JSON_TYPE },
    body,
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), bytes };
}

/**
 * One call at a time (`one` on a keep-alive connection), each timed with performance.now():
 * `count` calls, or fewer when `maxMs` runs out first (a slow peer would otherwise eat the run's time).
 */
export async function sequentialLatencies(
  one: () => Promise<unknown>,
  count: number,
  maxMs: number,
): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + maxMs;
  while (out.length < count && (out.length === 0 || performance.now() < end)) {
    const s = performance.now();
    await one();
    out.push(performance.now() - s);
  }
  return out;
}

/**
 * `clients` concurrent loops of `one()` for `warmupMs` (not counted), then for `seconds`; the
 * clock stops when the last call started in time has finished. Shaped as the kit's closedLoop
 * result so rounds merge with mergeRounds.
 */
export async function timedLoop(
  clients: number,
  warmupMs: number,
  seconds: number,
  one: () => Promise<unknown>,
): Promise<LoadResult> {
  const warmEnd = performance.now() + warmupMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < warmEnd) await one();
    }),
  );
  const latenciesMs: number[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        await one();
        latenciesMs.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    count: latenciesMs.length,
    seconds: elapsed,
    perSecond: latenciesMs.length / elapsed,
    latenciesMs,
    cpuMsPerOp: (cpu.user + cpu.system) / 1000 / Math.max(1, latenciesMs.length),
  };
}

/** CPU time a process has used so far, in ms (Linux /proc; undefined elsewhere). */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[11]) + Number(rest[12]);
    return Number.isFinite(ticks) ? ticks * CLOCK_TICK_MS : undefined;
  } catch {
    return undefined;
  }
}

/** USER_HZ is 100 on every Linux build node runs on. */
const CLOCK_TICK_MS = 10;

/** A child process of the bench and the first message it sent (its address). */
export interface Child<T> {
  process: ChildProcess;
  pid: number;
  ready: T;
  /** Sends a message and resolves with the child's next message. */
  ask<R>(message: unknown): Promise<R>;
  /** Resolves once the child has exited. */
  exited: Promise<void>;
  kill(): void;
}

/**
 * Forks `file` with an IPC channel and waits (at most `timeoutMs`) for its first message. The
 * child's stdout is dropped (servers log there); its stderr goes to the bench's.
 */
export function startChild<T>(
  name: string,
  file: string,
  args: string[],
  opts: { execArgv?: string[]; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<Child<T>> {
  const child = fork(file, args, {
    execArgv: opts.execArgv ?? [],
    env: opts.env ?? process.env,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${name} did not start within ${opts.timeoutMs ?? 120_000} ms`));
    }, opts.timeoutMs ?? 120_000);
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${code}) before it was ready`));
    };
    child.once('exit', early);
    child.once('message', (ready: T) => {
      clearTimeout(timer);
      child.off('exit', early);
      resolve({
        process: child,
        pid: child.pid as number,
        ready,
        ask: <R>(message: unknown) =>
          new Promise<R>((res) => {
            child.once('message', (m: R) => res(m));
            child.send(message as never);
          }),
        exited,
        kill: () => {
          if (child.exitCode === null) child.kill();
        },
      });
    });
  });
}

/**
 * A TypeScript child of the bench, run through tsx; with `source` false, the workspace packages it
 * imports resolve to their compiled dist/ (the `source` export condition left off), as in production.
 */
export const tsChild = <T>(name: string, file: string, args: string[], execArgv: string[] = [], source = true) =>
  startChild<T>(name, fileURLToPath(new URL(file, import.meta.url)), args, {
    execArgv: [...(source ? ['--conditions=source'] : []), '--import', 'tsx', ...execArgv],
  });

/** Portkey's gateway entry point, or undefined when the package is not installed. */
export function portkeyEntry(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve('@portkey-ai/gateway/package.json');
    return new URL('build/start-server.js', `file://${pkg}`).pathname;
  } catch {
    return undefined;
  }
}

/**
 * Portkey's gateway as its CLI starts it (`--headless`, NODE_ENV=production), bound to
 * 127.0.0.1 on a free port by the loopback preload (it would otherwise listen on every interface).
 */
export function startPortkey(entry: string) {
  return startChild<{ port: number }>('portkey', entry, ['--headless'], {
    execArgv: ['--require', fileURLToPath(new URL('./loopback.cjs', import.meta.url))],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
