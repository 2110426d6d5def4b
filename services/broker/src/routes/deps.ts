import {
  type App,
  type CommandResult,
  commandScope,
  type Database,
  type DeclaredRoute,
  declareRoutes,
  type Principal,
  runCommand,
} from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import type { ProviderEndpoint } from '../config.ts';
import type { Catalog } from '../domain/catalog.ts';
import { type Action, can } from '../domain/permissions.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
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
 * The broker's route declarer (issue 15.4): one declaration per route; the kit derives the guard
 * from the action (401, then 403), the Idempotency-Key for commands, the typed principal, the
 * OpenAPI entry and its codes (checked against ERRORS).
 */
export const { route, register } = declareRoutes<Action, ErrorCode, RouteDeps, CommandCtx>({ can, errors: ERRORS });

export type Routes = readonly DeclaredRoute<RouteDeps>[];

/**
 * Runs a command once per Idempotency-Key in one transaction, for routes that do more than send
 * its result: a status the command chooses, work once it committed (a cache cleared, the budget
 * gate told), or an answer that adds what the idempotency record must not keep. The caller sends
 * the result (sendCommandResult).
 */
export function runBrokerCommand<T>(
  deps: RouteDeps,
  req: FastifyRequest,
  principal: Principal,
  work: (ctx: CommandCtx) => Promise<CommandResult<T>>,
): Promise<CommandResult<T> & { replayed: boolean }> {
  const now = deps.clock();
  return runCommand({ db: deps.database.db, req, principal }, (trx) =>
    work(commandScope(deps, trx, principal, now) as CommandCtx),
  );
}
