import { BenchRun } from '@platform/kit/testing';
import { benchTail } from './tail.ts';

/**
 * The console benchmark: `npm run bench -w services/console` (or `npx tsx --conditions=source
 * services/console/bench/run.ts`). Sections: the log tail through SSE against the same lines read
 * straight from the fake cluster (bench/tail.ts). Writes bench/results/console.json.
 */
const run = new BenchRun('console');
const results: Record<string, unknown> = { tail: await benchTail(run) };
run.finish(new URL('./results/', import.meta.url), { goals: { tail_ratio_min: 0.5 }, ...results });
