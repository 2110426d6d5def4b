import { href } from '../App.tsx';
import { isObject, type Json, str } from '../api.ts';
import { DataTable, useConsole } from '../ui.tsx';

/** GET /v1/environments: the environment (ENV) and every region/subscription leaf of the catalog. */
export function EnvironmentsPage({ scopes, loading }: { scopes: Json[]; loading: boolean }) {
  const { env } = useConsole();
  return (
    <section>
      <h2>Environments</h2>
      <p>
        Environment <strong>{env || '…'}</strong>: choose a region and subscription.
      </p>
      {loading && scopes.length === 0 ? (
        <p className="muted">Loading…</p>
      ) : (
        <DataTable
          label="Subscriptions"
          rows={scopes.map((s) => ({
            region: s.region,
            subscription: s.subscription,
            ready: s.ready,
            // Which parts the subscription's variables configure (names only, never values).
            ...(isObject(s.parts)
              ? Object.fromEntries(
                  Object.entries(s.parts).map(([k, v]) => [k, isObject(v) ? (v.configured ? 'yes' : 'no') : 'none']),
                )
              : {}),
            ...Object.fromEntries(
              Object.entries(s)
                .filter(([, v]) => Array.isArray(v))
                .map(([k, v]) => [k, (v as unknown[]).length]),
            ),
          }))}
          actions={(r) => (
            <a href={href({ region: str(r.region), subscription: str(r.subscription) }, 'outbox')}>Open</a>
          )}
        />
      )}
    </section>
  );
}
