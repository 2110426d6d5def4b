import { type BlobStorage, type Database, type DeclaredRoute, declareRoutes, unavailable } from '@platform/kit';
import type { CommandCtx } from '../commands/context.ts';
import { type Action, can } from '../domain/permissions.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { events } from '../events.ts';
import type { DB } from '../store/db.ts';

export interface RouteDeps {
  database: Database<DB>;
  clock: () => Date;
  /** The service's declared events: what a command's `emit` accepts. */
  events: typeof events;
  /** Absent when no storage is configured: routes that need storage answer 503. */
  storage?: BlobStorage;
  maxUploadBytes: number;
}

/** The storage, or 503 storage_not_configured. */
export function requireStorage(deps: RouteDeps): BlobStorage {
  if (!deps.storage) throw unavailable('storage_not_configured', 'No storage is configured for documents');
  return deps.storage;
}

/**
 * Documents' route declarer (issue 15.4): one declaration per route; the kit derives the guard from
 * the action (open today, spec 1: wiring authorization is a change of policy data), the
 * Idempotency-Key for commands, the OpenAPI entry and its codes (checked against ERRORS).
 */
export const { route, register } = declareRoutes<Action, ErrorCode, RouteDeps, CommandCtx>({ can, errors: ERRORS });

export type Routes = readonly DeclaredRoute<RouteDeps>[];

/** What naming a blob's place refuses with: minting a SAS and registering (filename, account, container, blob). */
export const LOCATION_REFUSALS = [
  'unsafe_filename',
  'filename_extension_required',
  'unknown_storage_account',
  'visibility_mismatch',
  'container_required',
  'unknown_container',
  'blob_not_service_minted',
  'blob_already_registered',
  'storage_not_configured',
] as const satisfies readonly ErrorCode[];
