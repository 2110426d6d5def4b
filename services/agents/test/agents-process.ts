/**
 * The agents app in its own process, for the test that kills one after a commit: the app as
 * buildApp makes it, signed in by the dev header, on a PGlite folder or a schema of a PostgreSQL
 * server, with its reconciler woken by each command, over a runner whose apply tells the parent
 * it began (IPC {applying: agentId}) and never finishes, so a kill lands after the commit and
 * before the workload exists. argv: a PGlite folder or a postgres:// URL, then the schema. Sends
 * {url} once listening; it is meant to be killed.
 */
import { KIT_MIGRATIONS, migrate, openDatabase } from '@platform/kit';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { agentsConfig } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { Runner } from '../src/runner/port.ts';
import { Reconciler } from '../src/runner/reconciler.ts';
import { mailDomainOf } from '../src/start.ts';
import type { DB } from '../src/store/db.ts';

const [where = '', schema = 'agents'] = process.argv.slice(2);
const config = agentsConfig({ DEV_AUTH: '1', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
const database = await openDatabase<DB>(
  where.startsWith('postgres') ? { schema, url: where } : { schema, dataDir: where },
);
await migrate(database.db, [...KIT_MIGRATIONS, ...MIGRATIONS]);

const stuck: Runner = {
  name: 'process',
  apply: (w) => {
    process.send?.({ applying: w.agentId });
    return new Promise<void>(() => {});
  },
  remove: async () => {},
  list: async () => [],
};
const reconciler = new Reconciler({ database, runner: stuck, intervalMs: 600_000 });
const app = await buildApp({
  database,
  authenticator: agentsAuthenticator(config),
  callers: callerPolicy(config),
  mailDomain: mailDomainOf(config),
  logLevel: config.LOG_LEVEL,
  nudge: () => reconciler.nudge(),
  settle: (ms) => reconciler.settle(ms),
});
await app.listen({ host: config.HOST, port: 0 });
const { port } = app.server.address() as { port: number };
process.send?.({ url: `http://${config.HOST}:${port}` });
