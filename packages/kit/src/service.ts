import { type AuthConfig, authenticatorFromConfig } from './auth/auth-config.ts';
import { type Authenticator, noAuthenticator } from './auth/authenticate.ts';
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
  /**
   * How callers are authenticated: the service's auth settings (authConfig() plus DEV_AUTH).
   * Absent for the identity service, which trusts its own keys and store.
   */
  auth?: AuthConfig;
  devPrincipalsFile?: string;
  /**
   * A service whose callers prove themselves differently from the platform default (vendors'
   * caller table) builds its own from the kit's sources; it replaces the one `auth` implies.
   */
  authenticator?: Authenticator;
  /** This service's application audience at the access gateway, if it trusts the gateway. */
  gatewayAudience?: string | readonly string[];
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
  // Settings first: a configuration that could never authenticate anyone stops start-up.
  const authenticator =
    o.authenticator ??
    (o.auth
      ? authenticatorFromConfig(o.auth, { devPrincipalsFile: o.devPrincipalsFile, gatewayAudience: o.gatewayAudience })
      : noAuthenticator);
  const database = await openDatabase({
    schema: o.service,
    url: o.databaseUrl,
    dataDir: o.dataDir,
    pglite: o.pglite ? await o.pglite : undefined,
  });
  await migrate(database.db, [...KIT_MIGRATIONS, ...o.migrations]);
  const bus = o.bus ?? (o.busUrl ? await NatsBus.connect(o.busUrl, { streams: [o.service] }) : new MemoryBus());
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
