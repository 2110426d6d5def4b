import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, commonConfig, loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { RetentionJob, type RetentionRun } from '../src/retention.ts';
import { testDatabase, usingPostgres } from '../src/testing/database.ts';

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await testDatabase('kit_retention', []);
});
afterAll(async () => database.drop());
beforeEach(async () => {
  await sql`DELETE FROM idempotency_keys`.execute(database.db);
  await sql`DELETE FROM outbox`.execute(database.db);
});

const NOW = new Date('2026-03-10T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const job = (o: { batch?: number; onRun?: (r: RetentionRun) => void } = {}) =>
  new RetentionJob(database.db, { idempotencyHours: 168, outboxHours: 168, clock: () => NOW, ...o });

async function storeKey(key: string, createdAt: Date) {
  await sql`INSERT INTO idempotency_keys (key, request_hash, method, path, principal_id, status, response, created_at)
    VALUES (${key}, 'h', 'POST', '/v1/x', 'p', 201, '{}', ${createdAt})`.execute(database.db);
}

async function storeEvent(name: string, o: { publishedAt?: Date; occurredAt: Date; claimedUntil?: Date }) {
  await sql`INSERT INTO outbox (event_id, subject, event_type, payload, occurred_at, published_at, claimed_until, claim_token)
    VALUES (${randomUUID()}, ${`svc.${name}`}, ${name}, '{}', ${o.occurredAt}, ${o.publishedAt ?? null},
      ${o.claimedUntil ?? null}, ${o.claimedUntil ? randomUUID() : null})`.execute(database.db);
}

const keys = async () =>
  (await sql<{ key: string }>`SELECT key FROM idempotency_keys ORDER BY key`.execute(database.db)).rows.map(
    (r) => r.key,
  );
const events = async () =>
  (await sql<{ event_type: string }>`SELECT event_type FROM outbox ORDER BY event_type`.execute(database.db)).rows.map(
    (r) => r.event_type,
  );

describe('13.4 retention of idempotency records and sent events', () => {
  it('13.4 idempotency records older than IDEMPOTENCY_RETENTION_HOURS are deleted; younger ones stay', async () => {
    await storeKey('old', hoursAgo(169));
    await storeKey('much-older', hoursAgo(24 * 400));
    await storeKey('young', hoursAgo(167));
    await storeKey('new', NOW);
    const run = await job().run();
    expect(run.idempotencyKeys).toBe(2);
    expect(await keys()).toEqual(['new', 'young']);
  });

  it('13.4 published outbox rows older than OUTBOX_RETENTION_HOURS are deleted; an unsent row stays however old', async () => {
    await storeEvent('sent_old', { occurredAt: hoursAgo(200), publishedAt: hoursAgo(169) });
    await storeEvent('sent_young', { occurredAt: hoursAgo(200), publishedAt: hoursAgo(167) });
    await storeEvent('unsent_old', { occurredAt: hoursAgo(24 * 400) });
    await storeEvent('claimed_old', { occurredAt: hoursAgo(24 * 400), claimedUntil: hoursAgo(24 * 399) });
    const run = await job().run();
    expect(run.outbox).toBe(1);
    expect(await events()).toEqual(['claimed_old', 'sent_young', 'unsent_old']);
  });

  it('13.4 deletes in batches, each its own statement, until a batch comes back short', async () => {
    for (let i = 0; i < 7; i++) await storeKey(`old-${i}`, hoursAgo(169 + i));
    for (let i = 0; i < 6; i++)
      await storeEvent(`sent_${i}`, { occurredAt: hoursAgo(300), publishedAt: hoursAgo(200) });
    await storeKey('young', hoursAgo(1));
    // Keys: 3 + 3 + 1 (short, done); outbox: 3 + 3 + 0 (short, done).
    expect(await job({ batch: 3 }).run()).toEqual({ idempotencyKeys: 7, outbox: 6, batches: 6 });
    expect(await keys()).toEqual(['young']);
    expect(await events()).toEqual([]);
  });

  it('13.4 the clock decides: what is young now is deleted once the clock passes its retention', async () => {
    await storeKey('k', hoursAgo(100));
    await storeEvent('e', { occurredAt: hoursAgo(100), publishedAt: hoursAgo(100) });
    expect(await job().run()).toMatchObject({ idempotencyKeys: 0, outbox: 0 });
    const later = new Date(NOW.getTime() + 69 * 3_600_000);
    const run = await new RetentionJob(database.db, {
      idempotencyHours: 168,
      outboxHours: 168,
      clock: () => later,
    }).run();
    expect(run).toMatchObject({ idempotencyKeys: 1, outbox: 1 });
  });

  it('13.4 separate retentions: a shorter outbox retention deletes sent events and keeps the records', async () => {
    await storeKey('k', hoursAgo(30));
    await storeEvent('e', { occurredAt: hoursAgo(30), publishedAt: hoursAgo(30) });
    const run = await new RetentionJob(database.db, { idempotencyHours: 168, outboxHours: 24, clock: () => NOW }).run();
    expect(run).toMatchObject({ idempotencyKeys: 0, outbox: 1 });
    expect(await keys()).toEqual(['k']);
  });

  it('13.4 started, the job runs at once and again on its interval until stopped', async () => {
    await storeKey('old', hoursAgo(169));
    const runs: RetentionRun[] = [];
    let second!: () => void;
    const twice = new Promise<void>((r) => {
      second = r;
    });
    const j = new RetentionJob(database.db, {
      idempotencyHours: 168,
      outboxHours: 168,
      clock: () => NOW,
      intervalMs: 10,
      onRun: (r) => {
        runs.push(r);
        if (runs.length === 2) second();
      },
    });
    j.start();
    await twice;
    await j.stop();
    expect(runs.slice(0, 2).map((r) => r.idempotencyKeys)).toEqual([1, 0]);
    expect(await keys()).toEqual([]);
  });

  it.skipIf(!usingPostgres())(
    '13.4 on PostgreSQL a batch skips rows a command holds and does not wait for it',
    async () => {
      await storeKey('held', hoursAgo(169));
      await storeKey('free', hoursAgo(169));
      const run = await database.db.transaction().execute(async (trx) => {
        // A command in flight holds the record (e.g. re-storing it); the job runs on another connection.
        await sql`SELECT key FROM idempotency_keys WHERE key = 'held' FOR UPDATE`.execute(trx);
        return job().run();
      });
      expect(run.idempotencyKeys).toBe(1);
      expect(await keys()).toEqual(['held']);
    },
  );

  it('13.4 IDEMPOTENCY_RETENTION_HOURS and OUTBOX_RETENTION_HOURS default to 168 and refuse 0 or a non-integer', () => {
    const c = loadConfig({}, commonConfig());
    expect([c.IDEMPOTENCY_RETENTION_HOURS, c.OUTBOX_RETENTION_HOURS]).toEqual([168, 168]);
    const set = loadConfig({ IDEMPOTENCY_RETENTION_HOURS: '720', OUTBOX_RETENTION_HOURS: '24' }, commonConfig());
    expect([set.IDEMPOTENCY_RETENTION_HOURS, set.OUTBOX_RETENTION_HOURS]).toEqual([720, 24]);
    for (const name of ['IDEMPOTENCY_RETENTION_HOURS', 'OUTBOX_RETENTION_HOURS']) {
      for (const bad of ['0', '1.5', 'week']) {
        expect(() => loadConfig({ [name]: bad }, commonConfig())).toThrow(ConfigError);
        expect(() => loadConfig({ [name]: bad }, commonConfig())).toThrow(name);
      }
    }
  });
});
