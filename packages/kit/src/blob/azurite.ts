import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { freePort } from '../net.ts';
import { AZURITE_ACCOUNT_KEY, AZURITE_ACCOUNT_NAME } from './catalog.ts';

export interface AzuriteOptions {
  host?: string;
  /** 10000 by default; 0 picks a free port. */
  port?: number;
  /** Persist blobs in this folder; in memory without it. */
  location?: string;
  /** How long start-up may take. */
  timeoutMs?: number;
}

export interface Azurite {
  /** e.g. http://127.0.0.1:10000/devstoreaccount1 */
  blobEndpoint: string;
  accountName: string;
  accountKey: string;
  close(): Promise<void>;
}

const READY = 'successfully listens';

/**
 * Starts the Azurite blob emulator (from npm) as a child process and waits until it listens.
 * A process that exits before that, or is not listening within the time limit, fails with
 * its output.
 */
export async function startAzurite(opts: AzuriteOptions = {}): Promise<Azurite> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port === 0 ? await freePort() : (opts.port ?? 10000);
  const main = createRequire(import.meta.url).resolve('azurite/dist/src/blob/main.js');
  const args = [
    main,
    '--blobHost',
    host,
    '--blobPort',
    String(port),
    // Required: the SDK speaks newer API versions than the emulator announces (DEPENDENCIES.md).
    '--skipApiVersionCheck',
    '--loose',
    '--disableTelemetry',
    '--disableProductStyleUrl',
    '--silent',
  ];
  if (opts.location) {
    mkdirSync(opts.location, { recursive: true });
    args.push('--location', opts.location);
  } else {
    args.push('--inMemoryPersistence');
  }
  const child = spawn(process.execPath, args, {
    // In-memory Azurite still names a workspace folder; keep it out of the caller's tree.
    cwd: opts.location ?? tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Azurite did not listen on ${host}:${port} within ${opts.timeoutMs ?? 15_000} ms:\n${output}`));
    }, opts.timeoutMs ?? 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Azurite exited (${signal ?? code}) before listening on ${host}:${port}:\n${output}`));
    });
  });
  // Keep draining its output so a full pipe never blocks it.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    blobEndpoint: `http://${host}:${port}/${AZURITE_ACCOUNT_NAME}`,
    accountName: AZURITE_ACCOUNT_NAME,
    accountKey: AZURITE_ACCOUNT_KEY,
    close: () => stop(child),
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
