/**
 * A broker in its own process, for the test that kills one (13.2): the app as buildApp makes it
 * (its own budget gate and usage recorder, the production log level), signed in by the dev
 * header, on a PGlite folder or on a schema of a PostgreSQL server, with every catalog provider
 * at the test's fake. argv: the fake's base URL, the provider key, then a PGlite folder, or a
 * postgres:// URL, a schema, and the usage journal's folder ('' for none: replies wait for
 * their commits). Sends {url} once listening (after replaying the journal); it is meant to be
 * killed.
 */
import { KIT_MIGRATIONS, migrate, openDatabase } from '@platform/kit';
import { buildApp } from '../src/app.ts';
import { brokerAuthenticator } from '../src/auth.ts';
import { brokerConfig } from '../src/config.ts';
import { BUILT_IN_CATALOG } from '../src/domain/catalog.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';

const [providerBase = '', providerKey = '', where = '', schema = 'broker', journal = ''] = process.argv.slice(2);
const postgres = where.startsWith('postgres');
const config = brokerConfig({ DEV_AUTH: '1', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
const database = await openDatabase<DB>(postgres ? { schema, url: where } : { schema, dataDir: where });
await migrate(database.db, [...KIT_MIGRATIONS, ...MIGRATIONS]);
const app = await buildApp({
  database,
  authenticator: brokerAuthenticator(config),
  catalog: BUILT_IN_CATALOG,
  endpoints: BUILT_IN_CATALOG.providers.map((p) => ({ id: p.id, baseUrl: providerBase, apiKey: providerKey })),
  logLevel: config.LOG_LEVEL,
  usageJournalDir: journal || undefined,
});
await app.listen({ host: config.HOST, port: 0 });
const { port } = app.server.address() as { port: number };
process.send?.({ url: `http://${config.HOST}:${port}` });
