import type { Documents } from '../clients/documents.ts';

/**
 * What the saved-output routes need beyond every route's deps (RouteDeps, routes/deps.ts): the
 * documents service's client for the two-step upload path. Declared here, next to the routes that
 * read it, so the shared RouteDeps gains it without another area's edits.
 */
declare module './deps.ts' {
  interface RouteDeps {
    /** The documents service (DOCUMENTS_URL); unset: the upload path answers 503 documents_not_configured. */
    documents?: Documents;
  }
}
