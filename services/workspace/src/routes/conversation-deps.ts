import type { Intelligence } from '../clients/intelligence.ts';

/**
 * What the conversation routes need beyond every route's deps (RouteDeps, routes/deps.ts): the
 * intelligence service's client and the redaction approval key. Declared here, next to the
 * routes that read them, so the shared RouteDeps gains them without another area's edits.
 */
declare module './deps.ts' {
  interface RouteDeps {
    /** The intelligence service (INTELLIGENCE_URL): suggestions answer degraded when it does not. */
    intelligence?: Intelligence;
    /** REDACTION_APPROVAL_KEY; unset: approving a redaction is 503. */
    redactionApprovalKey?: string;
  }
}
