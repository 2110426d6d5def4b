import { join } from 'node:path';
import { type AuthConfig, authenticatorFromConfig } from './auth/auth-config.ts';
import { type Authenticator, noAuthenticator } from './auth/authenticate.ts';
import type { Bus } from './bus/bus.ts';
import { MemoryBus } from './bus/memory.ts';
import { NatsBus } from './bus/nats.ts';
import { ConfigError } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { type Migration, migrate } from './db/migrate.ts';
import type { SharedPglite } from './db/pglite-dialect.ts';
import { docsNote } from './http/app.ts';
import { KIT_MIGRATIONS } from './kit-migrations.ts';
import { OutboxPublisher } from './outbox.ts';
import { RetentionJob } from './retention.ts';

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
  /** Idempotency records are deleted after this many hours (default 168). */
  idempotencyRetentionHours?: number;
  /** Published outbox rows are deleted after this many hours (default 168). */
  outboxRetentionHours?: number;
  /** Time between retention runs (default 5 minutes). */
  retentionIntervalMs?: number;
}

export interface ServiceRuntime {
  database: Database;
  bus: Bus;
  authenticator: Authenticator;
  publisher: OutboxPublisher;
  retention: RetentionJob;
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
  const retention = new RetentionJob(database.db, {
    idempotencyHours: o.idempotencyRetentionHours ?? 168,
    outboxHours: o.outboxRetentionHours ?? 168,
    intervalMs: o.retentionIntervalMs,
  });
  retention.start();
  return {
    database,
    bus,
    authenticator,
    publisher,
    retention,
    async close() {
      await retention.stop();
      await publisher.stop();
      if (!o.bus) await bus.close();
      await database.close();
    },
  };
}

/** What the embedded launcher shares between the services it starts in one process. */
export interface SharedInfrastructure {
  pglite?: Promise<SharedPglite>;
  bus?: Bus;
}

/** The runtime options every service takes from the common settings (commonConfig()). */
export const runtimeFromConfig = (
  config: {
    DATABASE_URL?: string;
    PLATFORM_DATA_DIR: string;
    BUS_URL?: string;
    OUTBOX_POLL_MS: number;
    IDEMPOTENCY_RETENTION_HOURS: number;
    OUTBOX_RETENTION_HOURS: number;
    DEV_PRINCIPALS_FILE?: string;
  },
  shared: SharedInfrastructure = {},
) => ({
  databaseUrl: config.DATABASE_URL,
  dataDir: join(config.PLATFORM_DATA_DIR, 'pglite'),
  pglite: shared.pglite,
  busUrl: config.BUS_URL,
  bus: shared.bus,
  outboxPollMs: config.OUTBOX_POLL_MS,
  idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
  outboxRetentionHours: config.OUTBOX_RETENTION_HOURS,
  devPrincipalsFile: config.DEV_PRINCIPALS_FILE,
});

interface Listening {
  listen(o: { port: number; host: string }): Promise<unknown>;
  server: { address(): unknown };
  close(): Promise<unknown>;
}

/** Listens on the configured port and returns the started service: app, runtime, URL and close (app, then runtime). */
export async function serve<A extends Listening>(
  app: A,
  runtime: ServiceRuntime,
  where: { port: number; host: string },
  beforeClose?: () => void,
) {
  await app.listen(where);
  return {
    app,
    runtime,
    url: `http://${where.host}:${(app.server.address() as { port: number }).port}`,
    async close() {
      beforeClose?.();
      await app.close();
      await runtime.close();
    },
  };
}

/**
 * A service's process entry: start it, say where it listens, stop cleanly on SIGINT/SIGTERM. A
 * configuration error (ConfigError, or what `isConfigError` also names) exits 2 with its message.
 */
export async function runMain(
  name: string,
  start: () => Promise<{ url: string; close(): Promise<void> }>,
  o: { isConfigError?: (e: unknown) => boolean; note?: (started: { url: string }) => string } = {},
) {
  try {
    const started = await start();
    console.log(`${name} listening on ${started.url} (${o.note?.(started) ?? docsNote(started)})`);
    onShutdown(started.close);
  } catch (e) {
    if (e instanceof ConfigError || o.isConfigError?.(e)) {
      console.error((e as Error).message);
      process.exit(2);
    }
    throw e;
  }
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
