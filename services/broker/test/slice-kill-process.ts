/**
 * A usage recorder in its own process, for the test that kills one between two slices of a batch
 * (13.2): on a PGlite folder with the usage journal, it records calls 1..CALLS (journaled, so
 * answered at once), then writes them in slices of SLICE rows. At the pause after each slice it
 * sends {committed} (the rows in the database so far) and waits for the test, which kills it
 * there with SIGKILL. argv: the PGlite folder, the journal's folder, CALLS, SLICE.
 */
import { KIT_MIGRATIONS, migrate, openDatabase, uuidv7 } from '@platform/kit';
import { MIGRATIONS } from '../src/migrations.ts';
import type { BudgetGate, CompletedCall } from '../src/relay/ports.ts';
import { openUsageJournal, UsageRecorder, writeCalls } from '../src/relay/usage-recorder.ts';
import type { DB } from '../src/store/db.ts';

const [dataDir = '', journalDir = '', calls = '10', slice = '4'] = process.argv.slice(2);
const database = await openDatabase<DB>({ schema: 'broker', dataDir });
await migrate(database.db, [...KIT_MIGRATIONS, ...MIGRATIONS]);
const { journal } = await openUsageJournal(database.db, journalDir);
const noBudget: BudgetGate = { spent: () => {}, check: async () => {} };

let committed = 0;
const recorder = new UsageRecorder(database.db, noBudget, {
  journal,
  sliceRows: Number(slice),
  // Only the read below starts the write.
  flushDelayMs: 3_600_000,
  write: async (db, batch, syncCommit) => {
    await writeCalls(db, batch, syncCommit);
    committed += batch.length;
  },
  // Between two slices: tell the test, and wait for its SIGKILL.
  slicePause: () => {
    process.send?.({ committed });
    return new Promise<void>(() => {});
  },
});

const call = (n: number): CompletedCall => ({
  usage: {
    id: uuidv7(),
    occurred_at: new Date(Date.UTC(2026, 10, 25, 12, 0, 0)),
    actor_fid: 'sliced.person@broker.test',
    provider: 'openai',
    provider_kind: 'openai',
    model: 'gpt-4o',
    requested_model: null,
    request_kind: 'chat',
    input_tokens: n,
    output_tokens: 1,
    cost_micros: 10,
    cache_read_tokens: 0,
    cache_savings_micros: 0,
    routing_savings_micros: 0,
    source: 'relay',
    estimated: false,
  },
});

for (let n = 1; n <= Number(calls); n++) await recorder.record(call(n));
void recorder.settled();
