import { randomUUID } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import type { Ledger } from './lib.ts';
import { CONTROLLER, closedLoop } from './measure.ts';

/**
 * The HTTP client side of the posting benchmark: each of `clients` loops creates a 3-line
 * balanced entry (POST /v1/journal-entries) and posts it (POST /v1/journal-entries/{id}/post)
 * over one keep-alive undici Pool. It runs in a worker thread by default, so the client's own
 * CPU (JSON, HTTP parsing) does not share the server's event loop; BENCH_CLIENT=inline runs it
 * on the server's thread instead.
 */
export interface LoadOptions {
  url: string;
  ledger: Ledger;
  clients: number;
  warmupMs: number;
  count: number;
  transactionDate: string;
}

export interface LoadResult {
  count: number;
  seconds: number;
  perSecond: number;
  latenciesMs: number[];
  cpuMsPerOp: number;
}

export async function httpPostingLoad(o: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(o.url, { connections: o.clients, pipelining: 1, keepAliveTimeout: 60_000 });
  const [a, b, c] = o.ledger.accounts;
  const send = async (method: 'POST', path: string, body: unknown, expected: number) => {
    const res = await pool.request({
      method,
      path,
      headers: {
        'content-type': 'application/json',
        'x-dev-principal': CONTROLLER,
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as { payload: { data?: { id: string }; errors?: unknown } };
    if (res.statusCode !== expected) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json.payload.data as { id: string };
  };
  let n = 0;
  const one = async () => {
    const amount = 1000 + (n++ % 900);
    const entry = await send(
      'POST',
      '/v1/journal-entries',
      {
        data: {
          legal_entity_id: o.ledger.entityId,
          description: 'Bench rent and fee',
          transaction_date: o.transactionDate,
          lines: [
            { account_id: a, direction: 'debit', amount: amount - 100 },
            { account_id: b, direction: 'debit', amount: 100 },
            { account_id: c, direction: 'credit', amount },
          ],
        },
      },
      201,
    );
    await send('POST', `/v1/journal-entries/${entry.id}/post`, { data: {} }, 200);
  };
  try {
    return await closedLoop(o.clients, o.warmupMs, o.count, one);
  } finally {
    await pool.close();
  }
}

/** Runs the load in a worker thread (tsx registered there too) and returns its result. */
export function httpPostingLoadInWorker(o: LoadOptions): Promise<LoadResult> {
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
  httpPostingLoad(workerData.httpLoad as LoadOptions).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (e: Error) => parentPort?.postMessage({ ok: false, error: e.stack ?? String(e) }),
  );
}
