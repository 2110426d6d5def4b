import { join } from 'node:path';
import { type AuthConfig, authenticatorFromConfig } from './auth/auth-config.ts';
import { type Authenticator, noAuthenticator } from './auth/authenticate.ts';
import type { Bus, BusTopology } from './bus/bus.ts';
import { MemoryBus } from './bus/memory.ts';
import { NatsBus } from './bus/nats.ts';
import { ConfigError, commonConfig, loadConfig } from './config.ts';
import { type Database, type Db, type KitTables, openDatabase } from './db/database.ts';
import { type Migration, prepareSchema } from './db/migrate.ts';
import type { SharedPglite } from './db/pglite-dialect.ts';
import { docsNote } from './http/app.ts';
import { trackRequests } from './http/in-flight.ts';
import { KIT_MIGRATIONS } from './kit-migrations.ts';
import { type EventEnvelope, OutboxPublisher } from './outbox.ts';
import { RetentionJob } from './retention.ts';

/** What every service's process needs, built once from its config. */
export interface ServiceRuntimeOptions<DB extends KitTables = KitTables> {
  service: string;
  migrations: Migration[];
  databaseUrl?: string;
  dataDir?: string;
  pglite?: Promise<SharedPglite>;
  busUrl?: string;
  /** Shared in-process bus of the embedded launcher. */
  bus?: Bus;
  /**
   * The service's bus topology (it owns it as the publisher): its domains' topics and their
   * subscribers' durable consumers. Absent: one topic for the whole service, no consumers.
   */
  topology?: BusTopology;
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
  /** A failed outbox send or retention run (default: backgroundErrorLog, once a minute per failure). */
  onBackgroundError?: (job: BackgroundJob, e: Error) => void;
  /** false: check the schema is current instead of migrating it (MIGRATE_ON_START=0). Default true. */
  migrate?: boolean;
  /** Idempotency records are deleted after this many hours (default 168). */
  idempotencyRetentionHours?: number;
  /** Published outbox rows are deleted after this many hours (default 168). */
  outboxRetentionHours?: number;
  /** Time between retention runs (default 5 minutes). */
  retentionIntervalMs?: number;
  /** Runs after each batch of events the outbox publisher sent (OutboxPublisherOptions.onPublished). */
  onPublished?: (events: EventEnvelope[], db: Db<DB>) => Promise<void> | void;
}

/**
 * Where a background job's failure goes when the service gives no handler: one JSON line on
 * stderr (pino's shape), the same failure at most once a minute, so a bus that stays down is seen
 * without flooding the log at every poll.
 */
export function backgroundErrorLog(service: string, now: () => number = Date.now) {
  const last = new Map<string, number>();
  return (job: BackgroundJob, e: Error) => {
    const key = `${job}:${e.message}`;
    const at = now();
    if ((last.get(key) ?? Number.NEGATIVE_INFINITY) > at - 60_000) return;
    last.set(key, at);
    console.error(JSON.stringify({ level: 50, time: at, service, job, msg: `${job} failed: ${e.message}` }));
  };
}

export type BackgroundJob = 'outbox' | 'retention';

export interface ServiceRuntime<DB extends KitTables = KitTables> {
  database: Database<DB>;
  bus: Bus;
  authenticator: Authenticator;
  publisher: OutboxPublisher<DB>;
  retention: RetentionJob<DB>;
  close(): Promise<void>;
}

export async function startRuntime<DB extends KitTables = KitTables>(
  o: ServiceRuntimeOptions<DB>,
): Promise<ServiceRuntime<DB>> {
  // Settings first: a configuration that could never authenticate anyone stops start-up.
  const authenticator =
    o.authenticator ??
    (o.auth
      ? authenticatorFromConfig(o.auth, { devPrincipalsFile: o.devPrincipalsFile, gatewayAudience: o.gatewayAudience })
      : noAuthenticator);
  const database = await openDatabase<DB>({
    schema: o.service,
    url: o.databaseUrl,
    dataDir: o.dataDir,
    pglite: o.pglite ? await o.pglite : undefined,
  });
  await prepareSchema(database, [...KIT_MIGRATIONS, ...o.migrations], o.migrate);
  const bus = o.bus ?? (o.busUrl ? await NatsBus.connect(o.busUrl) : new MemoryBus());
  // Topics and consumers exist before the first publish, so no subscriber misses an event.
  await bus.declare?.(o.topology ?? { service: o.service });
  const report = o.onBackgroundError ?? backgroundErrorLog(o.service);
  const publisher = new OutboxPublisher(database.db, bus, {
    pollMs: o.outboxPollMs,
    onError: (e) => report('outbox', e),
    onPublished: o.onPublished && ((events) => o.onPublished?.(events, database.db)),
  });
  publisher.start();
  const retention = new RetentionJob(database.db, {
    idempotencyHours: o.idempotencyRetentionHours ?? 168,
    outboxHours: o.outboxRetentionHours ?? 168,
    intervalMs: o.retentionIntervalMs,
    onError: (e) => report('retention', e),
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
      // A last drain, so events of the final requests go out now rather than at the next start.
      await publisher.drain().catch(() => 0);
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
    MIGRATE_ON_START?: boolean;
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
  migrate: config.MIGRATE_ON_START,
  idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
  outboxRetentionHours: config.OUTBOX_RETENTION_HOURS,
  devPrincipalsFile: config.DEV_PRINCIPALS_FILE,
});

interface Listening {
  listen(o: { port: number; host: string }): Promise<unknown>;
  server: import('node:http').Server;
  log: { info(o: object, msg: string): void };
  close(): Promise<unknown>;
}

/** How long requests in flight may take to finish when a service stops (SHUTDOWN_GRACE_MS). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** A stop that had to cut off requests still in flight when the grace ran out (everything else closed). */
export class ShutdownCutShort extends Error {}

/** Listens on the configured port and returns the started service: app, runtime, URL and close (app, then runtime). */
export async function serve<A extends Listening, DB extends KitTables = KitTables>(
  app: A,
  runtime: ServiceRuntime<DB>,
  where: { port: number; host: string },
  beforeClose?: () => void,
) {
  await app.listen(where);
  const requests = trackRequests(app.server);
  return {
    app,
    runtime,
    url: `http://${where.host}:${(app.server.address() as { port: number }).port}`,
    /**
     * Stops gracefully: no new connections (a new request on an open one answers 503), requests in
     * flight finish with their normal answer, each connection closing after it; the app's close
     * hooks flush its queues; then the outbox's last drain, the bus and the database. Requests not
     * done after `graceMs` are cut off, and close rejects (ShutdownCutShort) once the rest is closed.
     */
    async close(o: { graceMs?: number } = {}) {
      const graceMs = o.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
      beforeClose?.();
      requests.closing();
      app.log.info({ inFlight: requests.inFlight, graceMs }, 'stopping: no new connections, requests in flight finish');
      let cut = 0;
      const deadline = setTimeout(() => {
        cut = requests.inFlight;
        app.server.closeAllConnections();
      }, graceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(deadline);
      }
      await runtime.close();
      if (cut > 0) {
        throw new ShutdownCutShort(
          `${cut} request(s) still in flight after the ${graceMs} ms shutdown grace were cut off`,
        );
      }
    },
  };
}

/**
 * TypeScript sources started without the "source" export condition run on the kit's build in
 * dist/, which may be older than the sources: entry points call this to refuse (a ConfigError).
 */
export function refuseBuildUnderSources(name: string) {
  if (/\.[cm]?ts$/.test(process.argv[1] ?? '') && import.meta.url.endsWith('.js')) {
    throw new ConfigError(
      `${name}: ${process.argv[1]} is TypeScript but @platform/kit resolved to its build (dist/): ` +
        'start sources with `tsx --conditions=source` (npm start does), or the build with `node services/<name>/dist/main.js`',
    );
  }
}

/**
 * A service's process entry: start it, say where it listens, stop gracefully on SIGINT/SIGTERM
 * (SHUTDOWN_GRACE_MS, see serve's close). A configuration error (ConfigError, or what
 * `isConfigError` also names) exits 2 with its message.
 */
export async function runMain(
  name: string,
  start: () => Promise<{ url: string; close(o?: { graceMs?: number }): Promise<void> }>,
  o: { isConfigError?: (e: unknown) => boolean; note?: (started: { url: string }) => string } = {},
) {
  try {
    refuseBuildUnderSources(name);
    const { SHUTDOWN_GRACE_MS: graceMs } = loadConfig(process.env, {
      SHUTDOWN_GRACE_MS: commonConfig().SHUTDOWN_GRACE_MS,
    });
    const started = await start();
    console.log(`${name} listening on ${started.url} (${o.note?.(started) ?? docsNote(started)})`);
    onShutdown(() => started.close({ graceMs }), { graceMs });
  } catch (e) {
    if (e instanceof ConfigError || o.isConfigError?.(e)) {
      console.error((e as Error).message);
      process.exit(2);
    }
    throw e;
  }
}

/** After the grace for requests, what flushing queues and closing the database may take before the process exits anyway. */
const CLOSE_BOUND_MS = 15_000;

/**
 * Run `close` once on SIGINT or SIGTERM, then exit: 0 when it resolved, 1 when it rejected (e.g.
 * requests cut off at the grace) or did not finish within `graceMs` plus 15 s. A second signal
 * during the stop ends the process at once. Entry points call this; libraries never do.
 */
export function onShutdown(close: () => Promise<unknown>, o: { graceMs?: number } = {}) {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`${signal} during the stop: exiting now`);
      process.exit(1);
    }
    stopping = true;
    const bound = (o.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS) + CLOSE_BOUND_MS;
    setTimeout(() => {
      console.error(`${signal}: the stop did not finish within ${bound} ms; exiting`);
      process.exit(1);
    }, bound).unref();
    try {
      await close();
    } catch (e) {
      console.error(`${signal}: stopped, but ${(e as Error).message}`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
