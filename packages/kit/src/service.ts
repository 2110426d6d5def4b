import type { Authenticator } from './auth/authenticate.ts';
import { chain, devHeaderAuthenticator, noAuthenticator } from './auth/authenticate.ts';
import { DevPrincipals } from './auth/dev-principals.ts';
import type { Bus } from './bus/bus.ts';
import { MemoryBus } from './bus/memory.ts';
import { NatsBus } from './bus/nats.ts';
import { type Database, openDatabase } from './db/database.ts';
import { type Migration, migrate } from './db/migrate.ts';
import type { SharedPglite } from './db/pglite-dialect.ts';
import { KIT_MIGRATIONS } from './kit-migrations.ts';
import { OutboxPublisher } from './outbox.ts';

/** What every service's process needs, built once from its config. */
export interface ServiceRuntimeOptions {
  service: string;
  migrations: Migration[];
  databaseUrl?: string;
  dataDir?: string;
  pglite?: Promise<SharedPglite>;
  busUrl?: string;
  /** Shared in-process bus of the embedded launcher. */
  bus?: Bus;
  devAuth: boolean;
  devPrincipalsFile?: string;
  outboxPollMs: number;
}

export interface ServiceRuntime {
  database: Database;
  bus: Bus;
  authenticator: Authenticator;
  publisher: OutboxPublisher;
  close(): Promise<void>;
}

export async function startRuntime(o: ServiceRuntimeOptions): Promise<ServiceRuntime> {
  const database = await openDatabase({
    schema: o.service,
    url: o.databaseUrl,
    dataDir: o.dataDir,
    pglite: o.pglite ? await o.pglite : undefined,
  });
  await migrate(database.db, [...KIT_MIGRATIONS, ...o.migrations]);
  const bus = o.bus ?? (o.busUrl ? await NatsBus.connect(o.busUrl, { streams: [o.service] }) : new MemoryBus());
  const authenticator = o.devAuth
    ? chain(devHeaderAuthenticator(DevPrincipals.load(o.devPrincipalsFile)))
    : noAuthenticator;
  const publisher = new OutboxPublisher(database.db, bus, { pollMs: o.outboxPollMs });
  publisher.start();
  return {
    database,
    bus,
    authenticator,
    publisher,
    async close() {
      await publisher.stop();
      if (!o.bus) await bus.close();
      await database.close();
    },
  };
}

/** Run `close` once on SIGINT or SIGTERM, then exit. Entry points call this; libraries never do. */
export function onShutdown(close: () => Promise<unknown>) {
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
