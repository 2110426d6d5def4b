import { type App, type Database, handleCommand, routeGuards } from '@platform/kit';
import { type Action, can } from '../domain/permissions.ts';

export interface RouteDeps {
  database: Database;
  clock: () => Date;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

export const { reader, commander } = routeGuards<Action>(can);

/** Runs a command once per Idempotency-Key in one transaction and answers with its result. */
export const command = handleCommand;
