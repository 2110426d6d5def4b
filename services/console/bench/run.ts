import { BenchRun } from '@platform/kit/testing';
import { benchOutbox } from './outbox.ts';
import { benchTail } from './tail.ts';

/**
 * The console benchmark: `npm run bench -w services/console` (or `npx tsx --conditions=source
 * services/console/bench/run.ts`), one run of both issue 21 sections:
 * 1. outbox counts over every service's schema at 1,000,000 rows, GET P/outbox over HTTP against
 *    the same statement run straight on the database (bench/outbox.ts; PGlite, and PostgreSQL with
 *    DATABASE_URL), goal direct/HTTP >= 0.5;
 * 2. the log tail through SSE against the same lines read straight from the fake cluster
 *    (bench/tail.ts), goal >= 0.5.
 * Writes bench/results/console.json.
 */
const run = new BenchRun('console');
const results: Record<string, unknown> = { outbox: await benchOutbox(run), tail: await benchTail(run) };
run.finish(new URL('./results/', import.meta.url), {
  goals: { outbox_ratio_min: 0.5, tail_ratio_min: 0.5 },
  ...results,
});
