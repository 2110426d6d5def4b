import { type ChildProcess, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ObservedWorkload, Runner, Workload } from './port.ts';

/**
 * The process runner adapter (ARCHITECTURE.md, "Outside systems, runners and schedules"; `npm
 * start`'s default): each applied workload is one child process of this service running the
 * harness program. A deployment (always-on agent) is started again after it exits, with a growing
 * pause, for as long as it stays applied; a job (ephemeral agent) runs once and its exit is final
 * until a new generation is applied. The children die with the service: close() reaps them.
 */

/** What the harness program is told (the names the kubernetes adapter also sets, plus the kind and ttl it cannot). */
export const PROCESS_ENV = {
  agentsUrl: 'AGENTS_URL',
  agentId: 'AGENT_ID',
  slug: 'AGENT_SLUG',
  harnessId: 'HARNESS_ID',
  serviceToken: 'SERVICE_TOKEN',
  brokerUrl: 'BROKER_URL',
  generation: 'GENERATION',
  kind: 'KIND',
  ttlAt: 'TTL_AT',
} as const;

/**
 * The parent's variables a child still gets: what node needs to start and reach the network, and
 * the harness's own tunables (README, Configuration). Nothing else is inherited: the service's
 * database address and keys stay out of agents' processes.
 */
const INHERITED_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'NODE_EXTRA_CA_CERTS',
  'TZ',
  'LANG',
  'HEARTBEAT_MS',
  'INBOX_POLL_MS',
];

/** The runner's log lines; pino's (obj, msg) order, so a service passes its logger as it is. */
export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const SILENT: RunnerLog = { info() {}, warn() {}, error() {} };

export interface ProcessRunnerOptions {
  /** The agents service as the harness reaches it (this server's own address locally). */
  agentsUrl: string;
  /** The shared service token the harness calls the agents service and the broker with. */
  serviceToken: string;
  brokerUrl: string;
  /** The harness program; a .ts file runs through tsx. Default: the platform harness beside this file. */
  entry?: string;
  /** Where the runner says what it did and what children printed. */
  log?: RunnerLog;
  /** Extra variables for every child (HEARTBEAT_MS, INBOX_POLL_MS in tests). */
  env?: Readonly<Record<string, string>>;
  /** How long a child has to exit after SIGTERM before it gets SIGKILL. */
  killGraceMs?: number;
  /** The first pause before a deployment is started again; it doubles on each quick exit, up to restartMaxMs. */
  restartMinMs?: number;
  restartMaxMs?: number;
}

const DEFAULT_KILL_GRACE_MS = 5_000;
const DEFAULT_RESTART_MIN_MS = 1_000;
const DEFAULT_RESTART_MAX_MS = 30_000;
/** A child that ran this long before exiting counts as healthy: its next restart waits the shortest pause again. */
const HEALTHY_RUN_MS = 60_000;

/** The harness next to this module: sources under tsx (npm start, tests), the build under plain node. */
export const DEFAULT_HARNESS_ENTRY = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../harness/main.ts' : '../harness/main.js', import.meta.url),
);

/** node's arguments for an entry: TypeScript through the tsx loader, on the workspaces' sources. */
export const nodeArgs = (entry: string) =>
  /\.[cm]?ts$/.test(entry) ? ['--conditions=source', '--import', 'tsx', entry] : [entry];

interface Entry {
  workload: Workload;
  child?: ChildProcess;
  /** Resolves when the current child has exited (at once when there is none). */
  exited: Promise<void>;
  /** A pending restart of a deployment. */
  timer?: NodeJS.Timeout;
  /** Quick exits in a row: the restart pause doubles with each. */
  failures: number;
  /** The job's final exit code (jobs are never started again). */
  finished?: number | null;
  /** Set once remove() or a replacement took the entry over: no restart follows its exit. */
  dropped: boolean;
  /** How the last child ended. */
  lastExit?: { code: number | null; signal: NodeJS.Signals | null };
}

class ProcessRunner implements Runner {
  readonly name = 'process' as const;
  private readonly entries = new Map<string, Entry>();
  /** One operation per agent at a time, in call order (apply and remove each await a child's exit). */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly log: RunnerLog;
  private readonly entry: string;
  private closed = false;

  constructor(private readonly o: ProcessRunnerOptions) {
    this.log = o.log ?? SILENT;
    this.entry = o.entry ?? DEFAULT_HARNESS_ENTRY;
  }

  apply(workload: Workload): Promise<void> {
    return this.serial(workload.agentId, async () => {
      if (this.closed) throw new Error('the process runner is closed');
      const current = this.entries.get(workload.agentId);
      if (current && current.workload.generation === workload.generation && current.workload.kind === workload.kind) {
        // Same generation: a job's exit is final, a deployment is running or waiting for its restart.
        current.workload = workload;
        return;
      }
      if (current) await this.stop(current);
      const entry: Entry = { workload, exited: Promise.resolve(), failures: 0, dropped: false };
      this.entries.set(workload.agentId, entry);
      this.launch(entry);
    });
  }

  remove(agentId: string): Promise<void> {
    return this.serial(agentId, async () => {
      const entry = this.entries.get(agentId);
      if (entry) await this.stop(entry);
    });
  }

  async list(): Promise<ObservedWorkload[]> {
    return [...this.entries.values()].map((e) => ({
      agentId: e.workload.agentId,
      kind: e.workload.kind,
      generation: e.workload.generation,
      name: e.child ? `${e.workload.slug} (pid ${e.child.pid})` : `${e.workload.slug} (not running)`,
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.entries.keys()].map((id) => this.remove(id)));
  }

  /** Process ids of the running children by agent (tests and diagnostics). */
  pids(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [id, e] of this.entries) if (e.child?.pid !== undefined) out[id] = e.child.pid;
    return out;
  }

  private serial<T>(agentId: string, op: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(agentId) ?? Promise.resolve();
    const next = previous.then(op, op);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(agentId, settled);
    void settled.then(() => {
      if (this.queues.get(agentId) === settled) this.queues.delete(agentId);
    });
    return next;
  }

  private launch(entry: Entry) {
    const w = entry.workload;
    const env: Record<string, string> = {};
    for (const name of INHERITED_ENV) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, this.o.env, {
      [PROCESS_ENV.agentsUrl]: this.o.agentsUrl,
      [PROCESS_ENV.agentId]: w.agentId,
      [PROCESS_ENV.slug]: w.slug,
      [PROCESS_ENV.harnessId]: w.harnessId,
      [PROCESS_ENV.serviceToken]: this.o.serviceToken,
      [PROCESS_ENV.brokerUrl]: this.o.brokerUrl,
      [PROCESS_ENV.generation]: String(w.generation),
      [PROCESS_ENV.kind]: w.kind,
      ...(w.ttlAt ? { [PROCESS_ENV.ttlAt]: w.ttlAt.toISOString() } : {}),
    });
    const started = Date.now();
    // Started in the entry's folder: node finds tsx from there, whatever folder the service started in.
    const child = spawn(process.execPath, nodeArgs(this.entry), {
      cwd: dirname(this.entry),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    const fields = { agent_id: w.agentId, slug: w.slug, generation: w.generation, kind: w.kind };
    entry.exited = new Promise<void>((resolve) => {
      child.on('error', (error) => {
        // spawn failed (no pid): there will be no exit event.
        if (child.pid === undefined) {
          this.log.error({ ...fields, err: error }, 'agent harness could not start');
          this.exited(entry, child, null, null, started);
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        this.exited(entry, child, code, signal, started);
        resolve();
      });
    });
    for (const [stream, level] of [
      [child.stdout, 'info'],
      [child.stderr, 'warn'],
    ] as const) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) =>
        this.log[level]({ ...fields, child_pid: child.pid }, line),
      );
    }
    this.log.info({ ...fields, child_pid: child.pid }, 'agent harness started');
  }

  private exited(
    entry: Entry,
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
    started: number,
  ) {
    if (entry.child !== child) return;
    entry.child = undefined;
    entry.lastExit = { code, signal };
    const w = entry.workload;
    const fields = { agent_id: w.agentId, slug: w.slug, generation: w.generation, kind: w.kind, code, signal };
    if (entry.dropped || this.closed) return;
    if (w.kind === 'job') {
      entry.finished = code;
      this.log.info(fields, 'agent job finished');
      return;
    }
    entry.failures = Date.now() - started >= HEALTHY_RUN_MS ? 0 : entry.failures + 1;
    const min = this.o.restartMinMs ?? DEFAULT_RESTART_MIN_MS;
    const max = this.o.restartMaxMs ?? DEFAULT_RESTART_MAX_MS;
    const pause = Math.min(max, min * 2 ** Math.max(0, entry.failures - 1));
    this.log.warn({ ...fields, restart_in_ms: pause }, 'agent harness exited; starting it again');
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (!entry.dropped && !this.closed && this.entries.get(w.agentId) === entry) this.launch(entry);
    }, pause);
  }

  /** Ends the entry's child (SIGTERM, then SIGKILL after the grace) and forgets the entry. */
  private async stop(entry: Entry) {
    entry.dropped = true;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    if (this.entries.get(entry.workload.agentId) === entry) this.entries.delete(entry.workload.agentId);
    const child = entry.child;
    if (!child) return;
    // child_pid, not pid: log printers drop `pid` as their own process's.
    const fields = { agent_id: entry.workload.agentId, child_pid: child.pid };
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.o.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    });
    const late = await Promise.race([entry.exited.then(() => false), graceOver]);
    clearTimeout(timer);
    if (late) {
      this.log.warn(fields, 'agent harness ignored SIGTERM; killing it');
      child.kill('SIGKILL');
      await entry.exited;
    }
    this.log.info({ ...fields, ...entry.lastExit }, 'agent harness stopped');
  }
}

/** The process runner (AGENTS_RUNNER=process). */
export const processRunner = (options: ProcessRunnerOptions): Runner & { pids(): Record<string, number> } =>
  new ProcessRunner(options);
