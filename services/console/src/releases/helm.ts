import { execFile } from 'node:child_process';
import { AppError } from '@platform/kit';
import type { HistoryEntry } from './names.ts';

/** One row of `helm list -o json` (Helm 3's releaseElement: its revision is a string there). */
export interface ReleaseRow {
  name: string;
  namespace: string;
  revision: string;
  updated: string;
  status: string;
  chart: string;
  app_version: string;
}

/** The release manager as the console uses it: every answer read from Helm's JSON output (OPS-019). */
export interface ReleaseManager {
  list(kubeconfig: string): Promise<ReleaseRow[]>;
  history(kubeconfig: string, namespace: string, name: string): Promise<HistoryEntry[]>;
  /** Runs the rollback; its outcome is read afterwards from `history`. */
  rollback(kubeconfig: string, namespace: string, name: string, revision: number): Promise<void>;
}

export interface HelmOptions {
  /** HELM_BIN: the helm executable (default `helm` on PATH). */
  bin: string;
  /** How long one Helm run may take before it is killed (and the rollback's own --timeout). */
  timeoutMs: number;
  /** The environment Helm runs with (HOME, PATH, its cache); never holds the kubeconfig's content. */
  env?: NodeJS.ProcessEnv;
}

export const helmFailed = (message: string) => new AppError(502, 'release_manager_failed', message);
export const releaseNotFound = (namespace: string, name: string) =>
  new AppError(404, 'release_not_found', `No release ${name} in namespace ${namespace}`);

/** Helm's last stderr line, which says what went wrong ("Error: ..."), bounded. */
const lastLine = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l.trim())
    .pop()
    ?.slice(0, 500) ?? '';

/**
 * Helm through execFile with an argument array: no shell ever parses a name (OPS-020 checks them
 * first anyway), the subscription's kubeconfig is passed by path, each run has a timeout.
 */
export class HelmCli implements ReleaseManager {
  constructor(private readonly opts: HelmOptions) {}

  private run(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        this.opts.bin,
        args,
        {
          shell: false,
          timeout: this.opts.timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: 32 * 1024 * 1024,
          env: this.opts.env ?? process.env,
          windowsHide: true,
        },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          const e = err as NodeJS.ErrnoException & { killed?: boolean };
          if (e.code === 'ENOENT') return reject(helmFailed(`The release manager (${this.opts.bin}) is not installed`));
          if (e.killed) return reject(helmFailed(`helm ${args[0]} took longer than ${this.opts.timeoutMs} ms`));
          const line = lastLine(String(stderr));
          if (/release: not found|not found/i.test(line))
            return reject(Object.assign(helmFailed(line), { notFound: true }));
          reject(helmFailed(`helm ${args[0]} failed: ${line || `exit ${String(e.code)}`}`));
        },
      );
    });
  }

  private async json<T>(args: string[]): Promise<T> {
    const out = await this.run(args);
    try {
      return JSON.parse(out || 'null') as T;
    } catch {
      throw helmFailed(`helm ${args[0]} did not print JSON`);
    }
  }

  async list(kubeconfig: string): Promise<ReleaseRow[]> {
    const rows = await this.json<ReleaseRow[] | null>([
      'list',
      '--all-namespaces',
      '--all',
      '--max',
      '1000',
      '--output',
      'json',
      '--kubeconfig',
      kubeconfig,
    ]);
    return rows ?? [];
  }

  async history(kubeconfig: string, namespace: string, name: string): Promise<HistoryEntry[]> {
    try {
      const rows = await this.json<HistoryEntry[] | null>([
        'history',
        name,
        '--namespace',
        namespace,
        '--max',
        '256',
        '--output',
        'json',
        '--kubeconfig',
        kubeconfig,
      ]);
      return rows ?? [];
    } catch (e) {
      if ((e as { notFound?: boolean }).notFound) throw releaseNotFound(namespace, name);
      throw e;
    }
  }

  async rollback(kubeconfig: string, namespace: string, name: string, revision: number): Promise<void> {
    // `helm rollback` prints no JSON (it has no --output); the caller reads the outcome from history.
    await this.run([
      'rollback',
      name,
      String(revision),
      '--namespace',
      namespace,
      '--wait',
      '--timeout',
      `${Math.max(1, Math.floor(this.opts.timeoutMs / 1000) - 5)}s`,
      '--kubeconfig',
      kubeconfig,
    ]);
  }
}
