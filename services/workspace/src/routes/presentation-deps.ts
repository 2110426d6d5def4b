import type { Communications } from '../clients/communications.ts';

/**
 * What the presentation routes need beyond every route's deps (RouteDeps, routes/deps.ts) and the
 * model broker and documents clients the feed and output routes declare: the communications
 * service's client, through which a share goes. Declared here, next to the routes that read it.
 */
declare module './deps.ts' {
  interface RouteDeps {
    /** The communications service (COMMUNICATIONS_URL); unset: a share answers 503 communications_not_configured. */
    communications?: Communications;
  }
}
