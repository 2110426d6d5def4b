import { type App, type Can, type Database, type DeclaredRoute, declareRoutes } from '@platform/kit';
import type { CommandCtx } from '../commands/context.ts';
import type { Action } from '../domain/permissions.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { events } from '../events.ts';
import type { DB } from '../store/db.ts';

export interface RouteDeps {
  database: Database<DB>;
  /** The policy's `can` with this deployment's audiences and editors (domain/permissions.ts). */
  can: Can<Action>;
  clock: () => Date;
  /** The service's declared events: what a command's `emit` accepts. */
  events: typeof events;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

/**
 * Vendors' route declarer (issue 15.4): one declaration per route; the kit derives the guard from
 * the action (read, change, portal) with this deployment's `can`, the Idempotency-Key for
 * commands, the typed principal, the OpenAPI entry and its codes (checked against ERRORS).
 */
export const { route, register } = declareRoutes<Action, ErrorCode, RouteDeps, CommandCtx>({
  can: (deps: RouteDeps) => deps.can,
  errors: ERRORS,
});

export type Routes = readonly DeclaredRoute<RouteDeps>[];

/** A route module of declarations, as app.ts registers them. */
export const module =
  (routes: Routes): RouteModule =>
  (app, deps) =>
    register(app, deps, routes);
