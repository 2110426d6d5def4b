import { type App, allowedTo, type Can, type Database, handleCommand, requireIdempotencyKey } from '@platform/kit';
import type { Action } from '../domain/permissions.ts';
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

/** preValidation of a read: employees and services on behalf of a person. */
export const reader = (deps: RouteDeps) => [allowedTo(deps.can, 'read')];

/** preValidation of a command: who may change (401, 403), then the Idempotency-Key (400), then the schema (422). */
export const commander = (deps: RouteDeps) => [allowedTo(deps.can, 'change'), requireIdempotencyKey];

/** preValidation of a vendor-portal route: portal tokens, dev-header people, services for a contact. */
export const portalReader = (deps: RouteDeps) => [allowedTo(deps.can, 'portal')];

/** Runs a command once per Idempotency-Key in one transaction and answers with its result. */
export const command = handleCommand;
