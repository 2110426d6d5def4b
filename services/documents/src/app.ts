import { type BlobStorage, createServiceApp, type Database } from '@platform/kit';
import { systemAuthenticator } from './actor.ts';
import { DEFAULT_MAX_UPLOAD_BYTES } from './config.ts';
import type { RouteDeps } from './routes/deps.ts';
import { documentRoutes } from './routes/documents.ts';
import { readableRoutes } from './routes/readable.ts';
import { sasRoutes } from './routes/sas.ts';
import type { DB } from './store/db.ts';

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
    routes: (app) => {
      // Static paths (sas, readable, uploaded-count) before /v1/documents/:id.
      for (const routes of [sasRoutes, readableRoutes, documentRoutes]) routes(app, routeDeps);
    },
  });
}
