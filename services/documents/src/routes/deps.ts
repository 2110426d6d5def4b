import { type App, type BlobStorage, type Database, handleCommand, routeGuards, unavailable } from '@platform/kit';
import { type Action, can } from '../domain/permissions.ts';
import type { DB } from '../store/db.ts';

export interface RouteDeps {
  database: Database<DB>;
  clock: () => Date;
  /** Absent when no storage is configured: routes that need storage answer 503. */
  storage?: BlobStorage;
  maxUploadBytes: number;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

/** The storage, or 503 storage_not_configured. */
export function requireStorage(deps: RouteDeps): BlobStorage {
  if (!deps.storage) throw unavailable('storage_not_configured', 'No storage is configured for documents');
  return deps.storage;
}

/** preValidation guards asking the documents policy (open today, spec 1); commanders then need an Idempotency-Key. */
export const { reader, commander } = routeGuards<Action>(can);

/** Runs a command once per Idempotency-Key in one transaction and answers with its result. */
export const command = handleCommand;
