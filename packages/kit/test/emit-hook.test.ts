import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.ts';
import { type CommandSource, commandScope } from '../src/command.ts';
import type { Database, KitTables } from '../src/db/database.ts';
import { type AnyEvent, defineEvents } from '../src/events.ts';
import { testDatabase } from '../src/testing/database.ts';

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await testDatabase('kit_emit_hook', []);
});
afterAll(async () => database.drop());

const events = defineEvents('hooked', {
  'thing.made': { description: 'A thing was made.', payload: Type.Object({ id: Type.String() }) },
});
const caller: Principal = { id: 'p-1', kind: 'person', grants: [] };
const outboxCount = async () =>
  Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox`.execute(database.db)).rows[0]?.n);

describe('16 the emit hook (CommandSource.onEmit)', () => {
  it('16 WS-273 runs after every emit of a command scope, in its transaction, with the events as a list, the caller and the clock', async () => {
    const seen: { events: readonly AnyEvent[]; principal: string; now: string; outbox: number }[] = [];
    const now = new Date('2026-02-03T04:05:06.000Z');
    const source: CommandSource<KitTables> = {
      database,
      clock: () => now,
      events,
      onEmit: async (scope, emitted) => {
        // The outbox rows of the same emit are already written in the same transaction.
        const n = Number(
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox`.execute(scope.trx)).rows[0]?.n,
        );
        seen.push({ events: emitted, principal: scope.principal.id, now: scope.now.toISOString(), outbox: n });
      },
    };
    const before = await outboxCount();
    await database.db.transaction().execute(async (trx) => {
      const scope = commandScope(source, trx, caller, now);
      await scope.emit({ type: 'thing.made', data: { id: 'a' } });
      await scope.emit([
        { type: 'thing.made', data: { id: 'b' } },
        { type: 'thing.made', data: { id: 'c' } },
      ]);
    });
    expect(seen.map((s) => [s.events.map((e) => (e.data as { id: string }).id), s.principal, s.now, s.outbox])).toEqual(
      [
        [['a'], 'p-1', now.toISOString(), before + 1],
        [['b', 'c'], 'p-1', now.toISOString(), before + 3],
      ],
    );
  });

  it('16 WS-273 a hook that fails fails the command: its transaction, outbox rows included, rolls back', async () => {
    const before = await outboxCount();
    const source: CommandSource<KitTables> = {
      database,
      clock: () => new Date(),
      events,
      onEmit: async () => {
        throw new Error('derived row refused');
      },
    };
    await expect(
      database.db.transaction().execute(async (trx) => {
        await commandScope(source, trx, caller, new Date()).emit({ type: 'thing.made', data: { id: 'x' } });
      }),
    ).rejects.toThrow('derived row refused');
    expect(await outboxCount()).toBe(before);
  });
});
