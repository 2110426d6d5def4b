import { type Authenticator, createServiceApp } from '@platform/kit';
import type { ConsoleConfig } from './config.ts';
import { type RoleLists, roleOfPrincipal } from './domain/roles.ts';
import type { Registry } from './registry/registry.ts';
import { type RouteDeps, register } from './routes/deps.ts';
import { RAW_ROUTES, ROUTES } from './routes/index.ts';
import { ScopeBuses } from './scope/buses.ts';
import { ScopeDatabases } from './scope/databases.ts';
import { registerWeb, webOptions } from './web/serve.ts';
import { WriteKeys } from './writes.ts';

export interface ConsoleDeps {
  config: ConsoleConfig;
  authenticator: Authenticator;
  registry: Registry;
  /** The server clock; tests pass their own. */
  clock?: () => Date;
  /** Replaces or adds route dependencies (area clients, fakes in tests). */
  extra?: Partial<RouteDeps>;
}

/**
 * The operations console (spec 3): no database and no policy engine of its own (OPS-041); the
 * gateway token is verified on every request and the caller's role comes from the two lists.
 */
export async function buildApp(deps: ConsoleDeps) {
  const databases = new ScopeDatabases();
  const buses = new ScopeBuses();
  const closers: (() => Promise<void>)[] = [() => databases.close(), () => buses.close()];
  const roles: RoleLists = {
    admins: deps.config.DEVOPS_ADMIN_EMAILS,
    engineers: deps.config.DEVOPS_ENGINEER_EMAILS,
  };
  const app = await createServiceApp({
    service: 'console',
    title: 'Operations console',
    description:
      'Deployment state by region and subscription: outbox counts and republish, SQL browsing, message-bus stats, pods, events, logs, terminals, releases, feature flags and log search',
    // Readiness has no database to ask: the console is ready once it listens.
    database: { ping: async () => true },
    authenticator: deps.authenticator,
    logLevel: deps.config.LOG_LEVEL,
    apiDocs: deps.config.SWAGGER_ON,
    security: ['gateway'],
    routes: async (scoped) => {
      scoped.decorateRequest('consoleRole', null);
      // After the kit's authentication (app-level onRequest): the role every route's hook reads.
      scoped.addHook('onRequest', async (req) => {
        req.consoleRole = roleOfPrincipal(req.principal, roles);
      });
      const routeDeps: RouteDeps = {
        config: deps.config,
        clock: deps.clock ?? (() => new Date()),
        registry: deps.registry,
        roles,
        databases,
        buses,
        writeKeys: new WriteKeys(),
        onClose: (close) => {
          closers.push(close);
        },
        ...deps.extra,
      };
      register(scoped, routeDeps, ROUTES);
      for (const m of RAW_ROUTES) await m(scoped, routeDeps);
    },
  });
  registerWeb(app, webOptions(deps.config));
  app.addHook('onClose', async () => {
    await Promise.allSettled(closers.map((c) => c()));
  });
  return app;
}
