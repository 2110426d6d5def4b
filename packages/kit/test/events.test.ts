import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandScope } from '../src/command.ts';
import type { Database, KitTables } from '../src/db/database.ts';
import { bindEmitter, defineEvents, type EventOf, subjectsOf } from '../src/events.ts';
import { testDatabase } from '../src/testing/database.ts';

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await testDatabase('kit_events', []);
});
afterAll(async () => database.drop());

const events = defineEvents('things', {
  'thing.created': {
    description: 'A thing was made.',
    payload: Type.Object({ id: Type.String(), size: Type.Optional(Type.Integer()) }),
  },
  'thing.deleted': {
    description: 'A thing was removed; the reason is personal.',
    payload: Type.Object({ id: Type.String() }),
    personal: Type.Object({ id: Type.String(), reason: Type.String() }),
  },
  'thing.noted': { description: 'Only personal.', personal: Type.Object({ note: Type.String() }) },
});

const rows = () =>
  sql<{ subject: string; event_type: string; restricted: boolean; payload: unknown }>`
    SELECT subject, event_type, restricted, payload FROM outbox ORDER BY id`
    .execute(database.db)
    .then((r) =>
      r.rows.map((x) => ({ ...x, payload: typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload })),
    );

describe('15.2 typed events', () => {
  it('15.2 a bound emitter stamps the service and the clock and sends personal data to the restricted subject only', async () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    await database.db.transaction().execute(async (trx) => {
      const emit = bindEmitter(events, trx, now);
      await emit({ type: 'thing.created', data: { id: 'a' } });
      await emit([
        { type: 'thing.deleted', data: { id: 'a' }, personal: { id: 'a', reason: 'mine' } },
        { type: 'thing.noted', personal: { note: 'n' } },
      ]);
    });
    const out = await rows();
    expect(out.map((r) => [r.subject, r.restricted])).toEqual([
      ['things.thing.created', false],
      ['things.thing.deleted', false],
      ['restricted.things.thing.deleted', true],
      ['restricted.things.thing.noted', true],
    ]);
    expect(out[0].payload).toMatchObject({ type: 'thing.created', source: 'things', occurred_at: now.toISOString() });
    expect(out[1].payload.data).toEqual({ id: 'a' });
    expect(out[2].payload.data).toEqual({ id: 'a', reason: 'mine' });
  });

  it('15.2 an undeclared type or a payload off its schema throws under test and writes nothing', async () => {
    const before = (await rows()).length;
    const emit = bindEmitter(events, database.db, new Date());
    // @ts-expect-error an undeclared type is a type error too
    await expect(emit({ type: 'thing.unknown', data: {} })).rejects.toThrow(/not declared by things/);
    // @ts-expect-error so is a payload off its schema
    await expect(emit({ type: 'thing.created', data: { id: 1 } })).rejects.toThrow(/payload does not match/);
    // @ts-expect-error and a missing personal part
    await expect(emit({ type: 'thing.deleted', data: { id: 'a' } })).rejects.toThrow(/personal does not match/);
    expect((await rows()).length).toBe(before);
  });

  it('15.2 the catalogue names the subjects of each event', () => {
    expect(subjectsOf(events, 'thing.deleted')).toEqual([
      { subject: 'things.thing.deleted', personal: false },
      { subject: 'restricted.things.thing.deleted', personal: true },
    ]);
    expect(() => defineEvents('x', { 'x.y': { description: 'none' } })).toThrow(/declares no payload/);
  });

  it("15.2 a command's scope typed by the catalogue refuses undeclared events at compile time", () => {
    const command = async (ctx: CommandScope<KitTables, EventOf<typeof events>>) => {
      await ctx.emit({ type: 'thing.created', data: { id: 'a', size: 1 } });
      // @ts-expect-error an undeclared type
      await ctx.emit({ type: 'thing.unknown', data: {} });
      // @ts-expect-error a payload off its schema
      await ctx.emit({ type: 'thing.created', data: { id: 'a', size: 'big' } });
    };
    // The kit's scope (any event) is what handleCommand passes to the service's narrower one.
    const run = (work: (ctx: CommandScope) => Promise<void>) => work;
    expect(run(command)).toBe(command);
  });
});
