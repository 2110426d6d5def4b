import type { Authenticator, Database } from '@platform/kit';
import { createServiceApp } from '@platform/kit';
import type { ProviderEndpoint } from './config.ts';
import type { Catalog } from './domain/catalog.ts';
import { events } from './events.ts';
import { Budgets } from './relay/budget-gate.ts';
import { WorkspaceConversations } from './relay/conversation-saver.ts';
import type { BudgetGate, ConversationSaver, Router, UsageSink } from './relay/ports.ts';
import { RoutingEngine } from './relay/router.ts';
import {
  openUsageJournal,
  UsageRecorder,
  usageSliceMs,
  usageSliceRows,
  usageSyncCommit,
} from './relay/usage-recorder.ts';
import { Roster } from './roster.ts';
import { type RelaySettings, type RouteDeps, register } from './routes/deps.ts';
import { ROUTES } from './routes/index.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { relayRoutes } from './routes/relay.ts';
import type { DB } from './store/db.ts';
import type { TokenSigner } from './tokens.ts';

export interface BrokerDeps {
  database: Database<DB>;
  authenticator: Authenticator;
  catalog: Catalog;
  endpoints: ProviderEndpoint[];
  signer?: TokenSigner;
  /** The workspace's address for saved conversations (skipped when unset) and the token to call it with. */
  workspaceUrl?: string;
  serviceToken?: string;
  relay?: Partial<RelaySettings>;
  budgetCacheMs?: number;
  /** BROKER_USAGE_SYNC_COMMIT: on PostgreSQL, usage writes wait for the WAL flush. */
  usageSyncCommit?: boolean;
  /**
   * The usage journal's folder (BROKER_USAGE_JOURNAL): a reply's end then waits for its call's
   * line there, not for its commit. Unset: for the commit.
   */
  usageJournalDir?: string;
  /** The server clock; tests pass their own to stand at chosen instants. */
  clock?: () => Date;
  logLevel?: string;
  /** SWAGGER_ON: serve the interactive docs at /api-docs. */
  swaggerOn?: boolean;
  /** Replacements for the relay's collaborators (tests). */
  budgets?: BudgetGate;
  router?: Router;
  usage?: UsageSink;
  conversations?: ConversationSaver;
}

export const DEFAULT_RELAY_SETTINGS: RelaySettings = {
  anthropicVersion: '2023-06-01',
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 300_000,
};

export async function buildApp(deps: BrokerDeps) {
  const db = deps.database.db;
  const budgets = deps.budgets ?? new Budgets(db, deps.budgetCacheMs ?? 2_000);
  // A previous process's journaled calls are committed before this one serves.
  const opened = !deps.usage && deps.usageJournalDir ? await openUsageJournal(db, deps.usageJournalDir) : undefined;
  // The recorder logs failed writes through the app's logger, which exists once the app is built.
  const usage =
    deps.usage ??
    new UsageRecorder(db, budgets, {
      log: () => app.log,
      syncCommit: usageSyncCommit(deps.database.kind, deps.usageSyncCommit ?? false),
      sliceRows: usageSliceRows(deps.database.kind),
      sliceMs: usageSliceMs(deps.database.kind),
      journal: opened?.journal,
    });
  const roster = new Roster(db);
  const clock = deps.clock ?? (() => new Date());
  const app = await createServiceApp({
    service: 'broker',
    title: 'Model broker',
    description:
      'Relays model calls to providers; usage and prices, savings, budgets, routing, the catalog and personal credentials',
    database: deps.database,
    authenticator: deps.authenticator,
    logLevel: deps.logLevel,
    apiDocs: deps.swaggerOn ?? false,
    // Spec 3's callers, plus the platform access token spec 2 makes valid everywhere (issue 14.2).
    security: ['gateway', 'bearer', 'brokerCredential', 'serviceToken', 'devPrincipal'],
    routes: (scoped) => {
      // Every caller joins the roster on first sight (GET /v1/people lists them without a POST).
      scoped.addHook('preHandler', async (req) => {
        if (req.principal) await roster.seen(req.principal, clock(), req.log);
      });
      const routeDeps: RouteDeps = {
        database: deps.database,
        clock,
        events,
        catalog: deps.catalog,
        endpoints: deps.endpoints,
        signer: deps.signer,
        usage,
        budgets,
        router: deps.router ?? new RoutingEngine(db, deps.catalog, { endpoints: deps.endpoints }),
        conversations:
          deps.conversations ??
          new WorkspaceConversations({
            db,
            workspaceUrl: deps.workspaceUrl,
            serviceToken: deps.serviceToken,
            log: scoped.log,
          }),
        relay: { ...DEFAULT_RELAY_SETTINGS, ...deps.relay },
      };
      // The declared routes (routes/index.ts); the relay's in their own scope of raw bodies; the
      // OAuth token exchange and the JWKS, which speak OAuth and JWKS rather than the envelope.
      register(scoped, routeDeps, ROUTES);
      relayRoutes(scoped, routeDeps);
      oauthRoutes(scoped, routeDeps);
    },
  });
  if (opened && opened.replayed.journaled > 0)
    app.log.warn(opened.replayed, 'usage journal of a stopped broker replayed');
  // Usage rows still being written are committed before the database closes.
  app.addHook('onClose', async () => {
    await usage.close();
  });
  return app;
}
