import { type Can, type Database, type DeclaredRoute, declareRoutes, type EmitHook } from '@platform/kit';
import type { Documents } from '../clients/documents.ts';
import type { Vendors } from '../clients/vendors.ts';
import type { CommandCtx } from '../commands/context.ts';
import type { Action } from '../domain/permissions.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { events } from '../events.ts';
import type { DB } from '../store/db.ts';

export interface RouteDeps {
  database: Database<DB>;
  /** The policy's `can` with this deployment's audience and editors (domain/permissions.ts). */
  can: Can<Action>;
  clock: () => Date;
  /** The service's declared events: what a command's `emit` accepts. */
  events: typeof events;
  /** The vendors service (CONSTRUCTION_VENDORS_URL); absent: firm checks answer 502 vendors_unavailable. */
  vendors?: Vendors;
  /** The documents service (CONSTRUCTION_DOCUMENTS_URL); absent: attachment routes answer 503. */
  documents?: Documents;
  /** Runs after every emit of a command, in its transaction: the activity feed (commands/activity.ts). */
  onEmit?: EmitHook<DB>;
}

/**
 * Construction's route declarer: one declaration per route; the kit derives the guard from the
 * action with this deployment's `can`, the Idempotency-Key for commands, the typed principal, the
 * OpenAPI entry and its codes (checked against ERRORS).
 */
export const { route, register } = declareRoutes<Action, ErrorCode, RouteDeps, CommandCtx>({
  can: (deps: RouteDeps) => deps.can,
  errors: ERRORS,
});

export type Routes = readonly DeclaredRoute<RouteDeps>[];
