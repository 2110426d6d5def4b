import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { closedLoop } from '@platform/kit/testing';
import { Pool } from 'undici';

/**
 * The HTTP client side of the vendors benchmark: `clients` keep-alive loops GET one path over an
 * undici Pool, checking each answer is a 200 with `expectItems` rows. It runs in a worker thread,
 * so the client's own CPU (HTTP and JSON parsing) does not share the server's event loop.
 */
export interface LoadOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  clients: number;
  warmupMs: number;
  count: number;
  expectItems: number;
}

export interface LoadResult {
  count: number;
  seconds: number;
  perSecond: number;
  latenciesMs: number[];
  cpuMsPerOp: number;
}

export async function httpGetLoad(o: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(o.url, { connections: o.clients, pipelining: 1, keepAliveTimeout: 60_000 });
  const one = async () => {
    const res = await pool.request({ method: 'GET', path: o.path, headers: o.headers });
    const json = (await res.body.json()) as { payload: { data?: unknown[] } };
    if (res.statusCode !== 200 || json.payload.data?.length !== o.expectItems) {
      throw new Error(`GET ${o.path}: ${res.statusCode} ${JSON.stringify(json).slice(0, 300)}`);
    }
  };
  try {
    return await closedLoop(o.clients, o.warmupMs, o.count, one);
  } finally {
    await pool.close();
  }
}

/** Runs the load in a worker thread (tsx registered there too) and returns its result. */
export function httpGetLoadInWorker(o: LoadOptions): Promise<LoadResult> {
  const file = new URL(import.meta.url).href;
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(boot, { eval: true, workerData: { httpLoad: o } });
    worker.once('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      if (m.ok) resolve(m.result);
      else reject(new Error(m.error));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code}`));
    });
  });
}

if (!isMainThread && workerData?.httpLoad) {
  httpGetLoad(workerData.httpLoad as LoadOptions).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (e: Error) => parentPort?.postMessage({ ok: false, error: e.stack ?? String(e) }),
  );
}
