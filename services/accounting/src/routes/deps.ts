import { type Database, type DeclaredRoute, declareRoutes } from '@platform/kit';
import type { CommandCtx } from '../commands/context.ts';
import { type Action, can } from '../domain/permissions.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { events } from '../events.ts';
import type { DB } from '../store/db.ts';

export interface RouteDeps {
  database: Database<DB>;
  clock: () => Date;
  /** Accounting's declared events: what a command's `emit` accepts. */
  events: typeof events;
}

/**
 * Accounting's route declarer (issue 15.4): each route is one declaration; the kit derives its
 * guard from the action, the Idempotency-Key for commands, the typed principal, the OpenAPI entry
 * and its error codes (checked against ERRORS).
 */
export const { route, register } = declareRoutes<Action, ErrorCode, RouteDeps, CommandCtx>({ can, errors: ERRORS });

export type Routes = readonly DeclaredRoute<RouteDeps>[];
