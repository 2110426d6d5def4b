import { useState } from 'react';
import { get, type Json, rowsOf, type Scope, scoped, seg, str, write } from '../api.ts';
import { DataTable, ErrorPanel, JsonView, Outcome, RoleGate, Show, useLoad } from '../ui.tsx';

/**
 * Feature flags of the subscription's flag server (a 501 shows the not-configured panel): the
 * features, one feature's details, service accounts without keys, and, for engineers, a key read
 * (its own request, logged by reader) and a feature's description write (read first by the console).
 */
export function FlagsPage({ scope }: { scope: Scope }) {
  const features = useLoad(async () => (await get(scoped(scope, '/flags/features'))).data, 'features');
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section>
      <h2>Feature flags</h2>
      <Show loaded={features}>
        {(data) => (
          <>
            <DataTable
              label="Features"
              rows={rowsOf(data, 'features')}
              empty="No features."
              actions={(r) => (
                <button type="button" onClick={() => setOpen(str(r.name))}>
                  Details
                </button>
              )}
            />
            {open && <Feature key={open} scope={scope} name={open} onSaved={features.reload} />}
            <ServiceAccounts scope={scope} />
          </>
        )}
      </Show>
    </section>
  );
}

function Feature({ scope, name, onSaved }: { scope: Scope; name: string; onSaved: () => void }) {
  const path = scoped(scope, `/flags/features${seg(name)}`);
  const feature = useLoad(async () => (await get<Json>(path)).data, path);
  const [description, setDescription] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: true; text: string } | { ok: false; error: unknown } | null>(null);
  const save = async () => {
    try {
      await write('PATCH', path, { description: description ?? '' });
      setResult({ ok: true, text: 'Saved.' });
      feature.reload();
      onSaved();
    } catch (error) {
      setResult({ ok: false, error });
    }
  };
  return (
    <>
      <h3>Feature {name}</h3>
      <Outcome result={result} />
      <Show loaded={feature}>
        {(data) => (
          <>
            <RoleGate needs="engineer">
              <form
                className="inline"
                onSubmit={(e) => {
                  e.preventDefault();
                  void save();
                }}
              >
                <label>
                  Description{' '}
                  <input
                    aria-label="Description"
                    size={50}
                    value={description ?? str(data?.description)}
                    onChange={(e) => setDescription(e.target.value)}
                  />
                </label>
                <button type="submit">Save</button>
              </form>
            </RoleGate>
            <JsonView value={data} />
          </>
        )}
      </Show>
    </>
  );
}

function ServiceAccounts({ scope }: { scope: Scope }) {
  const accounts = useLoad(async () => (await get(scoped(scope, '/flags/service-accounts'))).data, 'accounts');
  const [key, setKey] = useState<{ data?: unknown; error?: unknown } | null>(null);
  const readKey = async (id: string) => {
    try {
      setKey({ data: (await get(scoped(scope, `/flags/service-accounts${seg(id)}/keys`))).data });
    } catch (error) {
      setKey({ error });
    }
  };
  return (
    <>
      <h3>Service accounts</h3>
      <Show loaded={accounts}>
        {(data) => (
          <DataTable
            label="Service accounts"
            rows={rowsOf(data, 'serviceAccounts', 'service_accounts', 'accounts')}
            empty="No service accounts."
            actions={(r) => (
              <RoleGate needs="engineer">
                <button type="button" onClick={() => void readKey(str(r.id))}>
                  Read keys
                </button>
              </RoleGate>
            )}
          />
        )}
      </Show>
      {key?.error !== undefined && <ErrorPanel error={key.error} />}
      {key?.data !== undefined && <JsonView value={key.data} />}
    </>
  );
}
