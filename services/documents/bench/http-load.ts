import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { closedLoop } from '@platform/kit/testing';
import { Pool } from 'undici';

/**
 * The HTTP client side of the list benchmark: `clients` keep-alive loops GET the given paths in
 * turn over one undici Pool, each response read and checked. It runs in a worker thread, so
 * the client's own CPU (HTTP and JSON parsing) does not share the server's event loop.
 */
export interface LoadOptions {
  url: string;
  paths: string[];
  clients: number;
  warmupMs: number;
  count: number;
}

export interface LoadResult {
  count: number;
  seconds: number;
  perSecond: number;
  latenciesMs: number[];
  cpuMsPerOp: number;
}

export async function httpListLoad(o: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(o.url, { connections: o.clients, pipelining: 1, keepAliveTimeout: 60_000 });
  let n = 0;
  const one = async () => {
    const path = o.paths[n++ % o.paths.length];
    const res = await pool.request({ method: 'GET', path });
    const json = (await res.body.json()) as { payload: { data?: unknown[] } };
    if (res.statusCode !== 200 || !Array.isArray(json.payload.data) || json.payload.data.length === 0) {
      throw new Error(`GET ${path}: ${res.statusCode} ${JSON.stringify(json).slice(0, 300)}`);
    }
  };
  try {
    return await closedLoop(o.clients, o.warmupMs, o.count, one);
  } finally {
    await pool.close();
  }
}

/** A worker thread (tsx registered there too) that runs loads on request, one at a time. */
export class LoadWorker {
  private readonly worker: Worker;
  private pending: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | undefined;

  constructor() {
    const file = new URL(import.meta.url).href;
    const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
    this.worker = new Worker(boot, { eval: true, workerData: { listLoadWorker: true } });
    this.worker.on('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.ok) p?.resolve(m.result);
      else p?.reject(new Error(m.error));
    });
    this.worker.on('error', (e) => this.pending?.reject(e));
  }

  run(o: LoadOptions): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(o);
    });
  }

  async close() {
    await this.worker.terminate();
  }
}

if (!isMainThread && workerData?.listLoadWorker) {
  parentPort?.on('message', (o: LoadOptions) => {
    httpListLoad(o).then(
      (result) => parentPort?.postMessage({ ok: true, result }),
      (e: Error) => parentPort?.postMessage({ ok: false, error: e.stack ?? String(e) }),
    );
  });
}
