import { randomUUID } from 'node:crypto';
import { type Bus, type BusTopology, MemoryBus, NatsBus } from '@platform/kit';

/** TEST_NATS_URL: the real JetStream (CI: 127.0.0.1:4222); else the in-process bus. */
export const natsUrl = process.env.TEST_NATS_URL;
if (process.env.REQUIRE_REAL_INFRA === '1' && !natsUrl) throw new Error('REQUIRE_REAL_INFRA=1 needs TEST_NATS_URL');

/**
 * The bus the workspace's bus tests run on. On JetStream each run gets its own topics: every
 * subject's publisher segment (workspace, intelligence) is prefixed with a run tag, on publish,
 * subscribe and declare alike, so runs and test files sharing one broker never take each other's
 * messages, while the workspace code sees `workspace.…` subjects and its real consumer names.
 */
export async function testBus(): Promise<{ bus: Bus; real: boolean; tag: string }> {
  if (!natsUrl) return { bus: new MemoryBus(), real: false, tag: '' };
  const inner = await NatsBus.connect(natsUrl);
  const tag = `t${randomUUID().slice(0, 8)}`;
  const out = (s: string) => s.replace(/^(restricted\.)?([a-z]+)\./, `$1${tag}$2.`);
  const back = (s: string) => s.replace(new RegExp(`^(restricted\\.)?${tag}`), '$1');
  const bus: Bus = {
    publish: (messages) => inner.publish(messages.map((m) => ({ ...m, subject: out(m.subject) }))),
    subscribe: (pattern, durable, handler, opts) =>
      inner.subscribe(out(pattern), durable, (m) => handler({ ...m, subject: back(m.subject) }), opts),
    declare: (t: BusTopology) =>
      inner.declare({
        ...t,
        service: `${tag}${t.service}`,
        reads: t.reads?.map((r) => ({ ...r, service: `${tag}${r.service}` })),
      }),
    describe: async () => (await inner.describe()).map((c) => ({ ...c, filter: back(c.filter) })),
    close: () => inner.close(),
  };
  return { bus, real: true, tag };
}

/**
 * Waits for asynchronous delivery: polls `f` until it gives a value, for at most a minute (a loaded
 * machine delivers slowly; nothing here depends on how fast).
 */
export const waitFor = async <T>(f: () => Promise<T | undefined> | T | undefined, what: string, ms = 60_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
};
