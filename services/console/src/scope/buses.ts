import { AppError, type BusInspector, NatsBus } from '@platform/kit';
import type { ResolvedScope } from '../registry/registry.ts';

export const busNotConfigured = (scope: ResolvedScope) =>
  new AppError(
    501,
    'bus_not_configured',
    `${scope.key} has no bus configured (${scope.vars?.bus.url ?? 'no scopes entry'} is unset)`,
  );

export interface ScopeBus {
  kind: 'jetstream' | 'in-process';
  inspector: BusInspector;
}

/**
 * The subscriptions' buses as the console reads them: JetStream at the scope's bus URL (one
 * connection each, opened on first use, declaring nothing), or the embedded platform's
 * in-process bus through the kit's inspector. The console only reads: it publishes nothing
 * (OPS-061) and creates no consumer (a peek never receives, OPS-049).
 */
export class ScopeBuses {
  private readonly open = new Map<string, Promise<NatsBus>>();

  async of(scope: ResolvedScope): Promise<ScopeBus> {
    if (scope.busUrl) {
      let bus = this.open.get(scope.key);
      if (!bus) {
        bus = NatsBus.connect(scope.busUrl);
        this.open.set(scope.key, bus);
        // A failed connection is tried again on the next request.
        bus.catch(() => this.open.delete(scope.key));
      }
      try {
        return { kind: 'jetstream', inspector: (await bus).inspector() };
      } catch (e) {
        throw new AppError(503, 'scope_unavailable', `${scope.key}'s bus does not answer: ${(e as Error).message}`);
      }
    }
    const inspector = scope.bus?.inspector?.();
    if (inspector) return { kind: 'in-process', inspector };
    throw busNotConfigured(scope);
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map(async (b) => (await b).close()));
  }
}
