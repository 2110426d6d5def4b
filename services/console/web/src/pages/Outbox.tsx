import { useState } from 'react';
import { href } from '../App.tsx';
import { get, rowsOf, type Scope, scoped, seg, str, write } from '../api.ts';
import { DataTable, Outcome, RoleGate, Show, useLoad } from '../ui.tsx';

/** Outbox counts per service; one service's recent events, each republishable by an admin. */
export function OutboxPage({ scope, service }: { scope: Scope; service?: string }) {
  const counts = useLoad(async () => (await get(scoped(scope, '/outbox'))).data, 'outbox');
  return (
    <section>
      <h2>Outbox</h2>
      <Show loaded={counts}>
        {(data) => (
          <DataTable
            label="Outbox counts"
            rows={rowsOf(data, 'services', 'outboxes', 'schemas')}
            empty="No service has an outbox here."
            actions={(r) => {
              const name = str(r.service ?? r.schema ?? r.name);
              return <a href={href(scope, 'outbox', name)}>Events</a>;
            }}
          />
        )}
      </Show>
      {service && <OutboxEvents key={service} scope={scope} service={service} />}
    </section>
  );
}

function OutboxEvents({ scope, service }: { scope: Scope; service: string }) {
  const path = scoped(scope, `/outbox${seg(service)}/events`);
  const events = useLoad(async () => (await get(path)).data, path);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [why, setWhy] = useState('');
  const [result, setResult] = useState<{ ok: true; text: string } | { ok: false; error: unknown } | null>(null);
  const republish = async (id: string) => {
    try {
      await write('POST', `${path}${seg(id)}/republish`, {}, why || undefined);
      setResult({ ok: true, text: `Republished ${id}: it goes out again on the next publish.` });
      setConfirm(null);
      setWhy('');
      events.reload();
    } catch (error) {
      setResult({ ok: false, error });
    }
  };
  return (
    <>
      <h3>Recent events of {service}</h3>
      <Outcome result={result} />
      {confirm && (
        <div className="confirm" role="dialog" aria-label="Confirm republish">
          <p>
            Republish <strong>{confirm}</strong>? Its published_at is cleared and subscribers receive it again.
          </p>
          <label>
            Why (logged) <input aria-label="Why" value={why} onChange={(e) => setWhy(e.target.value)} size={40} />
          </label>
          <p>
            <button type="button" className="danger" onClick={() => void republish(confirm)}>
              Confirm republish
            </button>
            <button type="button" onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </p>
        </div>
      )}
      <Show loaded={events}>
        {(data) => (
          <DataTable
            label="Outbox events"
            rows={rowsOf(data, 'events')}
            columns={[
              'event_id',
              'event_type',
              'subject',
              'occurred_at',
              'published_at',
              'attempts',
              'last_error',
              'republished',
            ]}
            empty="No events."
            actions={(r) => (
              <RoleGate needs="admin">
                <button type="button" onClick={() => setConfirm(str(r.event_id ?? r.id))}>
                  Republish
                </button>
              </RoleGate>
            )}
          />
        )}
      </Show>
    </>
  );
}
