import { type App, type Database, routeGuards } from '@platform/kit';
import type { ProviderEndpoint } from '../config.ts';
import type { Catalog } from '../domain/catalog.ts';
import { type Action, can } from '../domain/permissions.ts';
import type { events } from '../events.ts';
import type { BudgetGate, ConversationSaver, Router, UsageSink } from '../relay/ports.ts';
import type { DB } from '../store/db.ts';
import type { TokenSigner } from '../tokens.ts';

/** Upstream call settings of the relay. */
export interface RelaySettings {
  anthropicVersion: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
}

export interface RouteDeps {
  database: Database<DB>;
  clock: () => Date;
  /** The broker's declared events (none today): what a command's `emit` accepts. */
  events: typeof events;
  catalog: Catalog;
  /** Each catalog provider's base URL and key. */
  endpoints: ProviderEndpoint[];
  /** Undefined when BROKER_SIGNING_KEY is unset: the token routes answer 503. */
  signer?: TokenSigner;
  usage: UsageSink;
  budgets: BudgetGate;
  router: Router;
  conversations: ConversationSaver;
  relay: RelaySettings;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

/**
 * reader(action) / commander(action): preValidation guards asking the broker's policy (401, then
 * 403; commanders then need an Idempotency-Key). Commands run through the kit's handleCommand(deps, …).
 */
export const { reader, commander } = routeGuards<Action>(can);
