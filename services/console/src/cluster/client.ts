import type { Readable, Writable } from 'node:stream';

/**
 * What the console reads from and does in a subscription's Kubernetes cluster. One implementation
 * talks to the API server with @kubernetes/client-node (kubernetes.ts); tests run it against the
 * kit's fake API server, so the wire is real.
 */

export interface PodRow {
  namespace: string;
  name: string;
  phase: string;
  node: string | null;
  /** Ready containers over all containers, as kubectl shows it ("1/2"). */
  ready: string;
  restarts: number;
  containers: string[];
  labels: Record<string, string>;
  created_at: string | null;
  /** Current usage from metrics.k8s.io, summed over containers; null when the cluster reports none for the pod. */
  cpu_millicores: number | null;
  memory_bytes: number | null;
}

export interface EventRow {
  namespace: string;
  name: string;
  type: string;
  reason: string;
  message: string;
  object: { kind: string; name: string; namespace: string | null };
  count: number;
  first_seen: string | null;
  last_seen: string | null;
}

export interface LogOptions {
  container?: string;
  tailLines?: number;
  sinceSeconds?: number;
  timestamps?: boolean;
}

export type PodChange = 'added' | 'modified' | 'deleted';

export interface PodState {
  namespace: string;
  name: string;
  phase: string;
  containers: string[];
  resourceVersion: string;
}

export interface ExecIo {
  stdin: Readable;
  stdout: Writable;
}

/** A started exec: its command, the terminal size (channel 4) and hanging up. */
export interface ExecSession {
  command: string[];
  resize: (size: { cols: number; rows: number }) => void;
  close: () => void;
}

export interface ExecResult {
  /** The command that ran (the first of the candidates the container has). */
  command: string[];
  /** The exit code, or null when the session was closed before the command ended. */
  exitCode: number | null;
  message?: string;
}

export interface ClusterClient {
  listPods(): Promise<PodRow[]>;
  listEvents(): Promise<EventRow[]>;
  /** A namespace's pods matching a label selector (the API server's 400 for a bad selector). */
  listPodsIn(namespace: string, selector: string): Promise<PodState[]>;
  /** The pod as the console needs it (containers to default to); throws ClusterError 404 when absent. */
  readPod(namespace: string, name: string): Promise<PodState>;
  readLog(namespace: string, pod: string, options: LogOptions): Promise<string>;
  /**
   * Calls onLines with the complete lines of each chunk the API server sends, until the stream
   * ends (pod gone or stopped) or signal aborts.
   */
  followLog(
    namespace: string,
    pod: string,
    options: LogOptions & { container: string },
    onLines: (lines: string[]) => void,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * Watches the namespace's pods matching a label selector: existing ones first as added, then
   * changes; reconnects from the last resourceVersion when the server closes the watch. Resolves
   * when signal aborts.
   */
  watchPods(
    namespace: string,
    selector: string,
    onChange: (change: PodChange, pod: PodState) => void,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * Runs the first command of `candidates` the container has (a runtime answers "executable file
   * not found" before any output for the others) with a TTY; `io` is asked for fresh streams per
   * attempt. Resolves with how it ended.
   */
  exec(
    namespace: string,
    pod: string,
    container: string | undefined,
    candidates: string[][],
    io: () => ExecIo,
    onStart?: (session: ExecSession) => void,
  ): Promise<ExecResult>;
}

/** A failure the API server answered (status and its Status message), or 502 when it could not be reached. */
export class ClusterError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Kubernetes quantity to millicores: `250m`, `0.5`, `12345678n`, `3u`. */
export function cpuMillicores(quantity: string): number {
  const m = /^([0-9.]+)([num]?)$/.exec(quantity.trim());
  if (!m) return Number.NaN;
  const value = Number(m[1]);
  const scale = { n: 1e-6, u: 1e-3, m: 1, '': 1000 }[m[2] as 'n' | 'u' | 'm' | ''];
  return value * scale;
}

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, '': 1 };

/** Kubernetes quantity to bytes: `128Mi`, `1G`, `2048Ki`, `1e3`, `1000`. */
export function memoryBytes(quantity: string): number {
  const m = /^([0-9.]+(?:e[0-9]+)?)([KMGT]i|[kKMGT])?$/.exec(quantity.trim());
  if (!m) return Number.NaN;
  const suffix = m[2] ?? '';
  return Math.round(Number(m[1]) * (BINARY[suffix] ?? DECIMAL[suffix]));
}
