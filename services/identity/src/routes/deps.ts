import { type App, type Database, handleCommand, routeGuards } from '@platform/kit';
import { type Action, can } from '../domain/permissions.ts';
import type { Matrix } from '../domain/roles.ts';
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

export const { reader, commander } = routeGuards<Action>(can);

/** Runs a command once per Idempotency-Key in one transaction and answers with its result. */
export const command = handleCommand;
