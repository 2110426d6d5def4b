import type { EmitHook } from '@platform/kit';
import type { ModelClient } from '../clients/broker.ts';
import type { DB } from '../store/db.ts';

/**
 * What the feed's routes need beyond every route's deps (RouteDeps, routes/deps.ts): the emit hook
 * that writes every feed event's activity row (commands/activity.ts, CommandSource.onEmit) and the
 * model broker's client, whose absence makes digests and packs answer degraded. Declared here,
 * next to the routes that read them, so the shared RouteDeps gains them without another area's edits.
 */
declare module './deps.ts' {
  interface RouteDeps {
    /** The kit calls it after every emit of a command, in its transaction. */
    onEmit?: EmitHook<DB>;
    /** The model broker (BROKER_URL); absent: no digest line and no pack summary is written. */
    model?: ModelClient;
  }
}
