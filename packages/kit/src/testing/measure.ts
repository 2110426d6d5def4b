/** Load and latency measurement for benchmarks (never for tests: tests never depend on timing). */
export function median(xs: number[]): number {
  return quantile(xs, 0.5);
}

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Drives `clients` concurrent loops of `one()`: first for `warmupMs` (not counted), then until
 * `count` operations have been started; the clock stops when the last of them has finished.
 */
export async function closedLoop(
  clients: number,
  warmupMs: number,
  count: number,
  one: (client: number) => Promise<void>,
): Promise<{ count: number; seconds: number; perSecond: number; latenciesMs: number[]; cpuMsPerOp: number }> {
  const warmEnd = performance.now() + warmupMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < warmEnd) await one(c);
    }),
  );
  let started = 0;
  const latenciesMs: number[] = [];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (started < count) {
        started++;
        const s = performance.now();
        await one(c);
        latenciesMs.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  // The whole process (every thread, the load worker included); a database server's CPU is not in it.
  const cpu = process.cpuUsage(cpu0);
  return {
    count: started,
    seconds,
    perSecond: started / seconds,
    latenciesMs,
    cpuMsPerOp: (cpu.user + cpu.system) / 1000 / started,
  };
}

/** Rounds of one side of a comparison taken together: all operations over all their time. */
export function mergeRounds(rounds: Awaited<ReturnType<typeof closedLoop>>[]): Awaited<ReturnType<typeof closedLoop>> {
  const count = rounds.reduce((a, r) => a + r.count, 0);
  const seconds = rounds.reduce((a, r) => a + r.seconds, 0);
  return {
    count,
    seconds,
    perSecond: count / seconds,
    latenciesMs: rounds.flatMap((r) => r.latenciesMs),
    cpuMsPerOp: rounds.reduce((a, r) => a + r.cpuMsPerOp * r.count, 0) / count,
  };
}
