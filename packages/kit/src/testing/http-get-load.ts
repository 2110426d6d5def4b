import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { closedLoop } from './measure.ts';

/** A read benchmark's HTTP side: `clients` keep-alive loops GET the paths in turn. */
export interface GetLoadOptions {
  /** The server's origin, e.g. http://127.0.0.1:4103. */
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  clients: number;
  warmupMs: number;
  count: number;
  /** Every answer must be a 200 list with exactly this many items; without it, with at least one. */
  expectItems?: number;
  /** Where the list is inside payload.data when the answer is an object (e.g. 'items'); default: data itself. */
  itemsAt?: string;
}

export type LoadResult = Awaited<ReturnType<typeof closedLoop>>;

/** Runs the load on this thread; each answer is read, parsed and checked. */
export async function httpGetLoad(o: GetLoadOptions): Promise<LoadResult> {
  const pool = new Pool(o.url, { connections: o.clients, pipelining: 1, keepAliveTimeout: 60_000 });
  let n = 0;
  const one = async () => {
    const path = o.paths[n++ % o.paths.length] as string;
    const res = await pool.request({ method: 'GET', path, headers: o.headers });
    const json = (await res.body.json()) as { payload: { data?: unknown } };
    const data = json.payload.data as Record<string, unknown> | unknown[] | undefined;
    const items = o.itemsAt === undefined ? data : (data as Record<string, unknown> | undefined)?.[o.itemsAt];
    const ok =
      res.statusCode === 200 &&
      Array.isArray(items) &&
      (o.expectItems === undefined ? items.length > 0 : items.length === o.expectItems);
    if (!ok) throw new Error(`GET ${path}: ${res.statusCode} ${JSON.stringify(json).slice(0, 300)}`);
  };
  try {
    return await closedLoop(o.clients, o.warmupMs, o.count, one);
  } finally {
    await pool.close();
  }
}

/**
 * A worker thread that runs GET loads on request, one at a time, so the client's own CPU (HTTP
 * and JSON parsing) does not share the server's event loop. tsx is registered in the worker.
 */
export class GetLoadWorker {
  private readonly worker: Worker;
  private pending: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | undefined;

  constructor() {
    const file = new URL(import.meta.url).href;
    const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
    this.worker = new Worker(boot, { eval: true, workerData: { getLoadWorker: true } });
    this.worker.on('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.ok) p?.resolve(m.result);
      else p?.reject(new Error(m.error));
    });
    this.worker.on('error', (e) => this.pending?.reject(e));
  }

  run(o: GetLoadOptions): Promise<LoadResult> {
    if (this.pending) return Promise.reject(new Error('one load at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(o);
    });
  }

  async close() {
    await this.worker.terminate();
  }
}

if (!isMainThread && workerData?.getLoadWorker) {
  parentPort?.on('message', (o: GetLoadOptions) => {
    httpGetLoad(o).then(
      (result) => parentPort?.postMessage({ ok: true, result }),
      (e: Error) => parentPort?.postMessage({ ok: false, error: e.stack ?? String(e) }),
    );
  });
}
