import { type App, type Database, type DeclaredRoute, declareRoutes } from '@platform/kit';
import type { Ctx as CommandCtx } from '../commands/people.ts';
import { type Action, can } from '../domain/permissions.ts';
import type { Matrix } from '../domain/roles.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { events } from '../events.ts';
import type { GatewayIssuer } from '../oauth/gateway.ts';
import type { DB } from '../store/db.ts';

export interface RouteDeps {
  database: Database<DB>;
  clock: () => Date;
  /** Identity's declared events: what a command's `emit` accepts. */
  events: typeof events;
  gateway?: GatewayIssuer;
  /** The role-to-action matrix of every service's policy (authz/me, roles). */
  matrix: Matrix;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

/**
 * Identity's route declarer (issue 15.4): one declaration per /v1 route; the kit derives the guard
 * from the action, the Idempotency-Key for commands, the typed principal, the OpenAPI entry and its
 * codes (checked against ERRORS).
 */
export const { route, register } = declareRoutes<Action, ErrorCode, RouteDeps, CommandCtx>({ can, errors: ERRORS });

export type Routes = readonly DeclaredRoute<RouteDeps>[];

/** A route module of declarations, as app.ts registers them. */
export const module =
  (routes: Routes): RouteModule =>
  (app, deps) =>
    register(app, deps, routes);
