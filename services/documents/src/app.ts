import { type BlobStorage, createServiceApp, type Database } from '@platform/kit';
import { systemAuthenticator } from './actor.ts';
import { DEFAULT_MAX_UPLOAD_BYTES } from './config.ts';
import { events } from './events.ts';
import { type RouteDeps, type Routes, register } from './routes/deps.ts';
import { documentRoutes } from './routes/documents.ts';
import { readableRoutes } from './routes/readable.ts';
import { sasRoutes } from './routes/sas.ts';
import type { DB } from './store/db.ts';

/** Every route documents serves, as declarations (issue 15.4): the route checks run over them. */
export const ROUTES: Routes = [...sasRoutes, ...readableRoutes, ...documentRoutes];

export interface DocumentsDeps {
  database: Database<DB>;
  /** Absent when no storage is configured: SAS minting, registration and single reads answer 503. */
  storage: BlobStorage | undefined;
  /** DOCUMENTS_MAX_UPLOAD_BYTES. */
  maxUploadBytes?: number;
  /** The server clock; tests pass their own to stand at chosen instants. */
  clock?: () => Date;
  logLevel?: string;
}

export async function buildApp(deps: DocumentsDeps) {
  const routeDeps: RouteDeps = {
    database: deps.database,
    clock: deps.clock ?? (() => new Date()),
    events,
    storage: deps.storage,
    maxUploadBytes: deps.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
  };
  return createServiceApp({
    service: 'documents',
    title: 'Documents',
    description: 'Records of files in blob storage: SAS URLs for upload and download, references and metadata',
    database: deps.database,
    // Authorization is not wired (spec 1): every request runs as the placeholder actor.
    authenticator: systemAuthenticator,
    security: [],
    logLevel: deps.logLevel,
    routes: (app) => register(app, routeDeps, ROUTES),
  });
}
