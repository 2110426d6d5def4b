import { useState } from 'react';
import { get, type Json, rowsOf, type Scope, scoped, seg, str, write } from '../api.ts';
import { DataTable, ErrorPanel, JsonView, Outcome, RoleGate, Show, useLoad } from '../ui.tsx';

type Result = { ok: true; text: string } | { ok: false; error: unknown } | null;

/**
 * Feature flags of the subscription's flag server (a 501 shows the not-configured panel): a
 * project's features, one feature's details, applications, service accounts and API keys (no
 * secrets in lists). Engineers also create a feature, change its details (the console reads first
 * and sends the whole value with the read's version) and read one key (its own logged request).
 */
export function FlagsPage({ scope }: { scope: Scope }) {
  const [project, setProject] = useState('default');
  const path = scoped(scope, `/flags/projects${seg(project)}/features`);
  const features = useLoad(async () => (await get(path)).data, path);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section>
      <h2>Feature flags</h2>
      <form className="inline" onSubmit={(e) => e.preventDefault()}>
        <label>
          Project <input aria-label="Project" value={project} onChange={(e) => setProject(e.target.value)} />
        </label>
      </form>
      <Show loaded={features}>
        {(data) => (
          <>
            <DataTable
              label="Features"
              rows={rowsOf(data, 'features')}
              columns={['name', 'type', 'description', 'stale', 'enabled', 'createdAt']}
              empty="No features."
              actions={(r) => (
                <button type="button" onClick={() => setOpen(str(r.name))}>
                  Details
                </button>
              )}
            />
            <RoleGate needs="engineer">
              <CreateFeature path={path} onDone={features.reload} />
            </RoleGate>
            {open && <Feature key={open} path={`${path}${seg(open)}`} name={open} onSaved={features.reload} />}
            <Keys scope={scope} />
            <Listing scope={scope} what="applications" label="Applications" />
            <Listing scope={scope} what="service-accounts" label="Service accounts" />
          </>
        )}
      </Show>
    </section>
  );
}

function CreateFeature({ path, onDone }: { path: string; onDone: () => void }) {
  const [name, setName] = useState('');
  const [result, setResult] = useState<Result>(null);
  const create = async () => {
    try {
      await write('POST', path, { name });
      setResult({ ok: true, text: `Created ${name}.` });
      setName('');
      onDone();
    } catch (error) {
      setResult({ ok: false, error });
    }
  };
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <label>
        New feature <input aria-label="New feature" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" disabled={!name}>
        Create
      </button>
      <Outcome result={result} />
    </form>
  );
}

function Feature({ path, name, onSaved }: { path: string; name: string; onSaved: () => void }) {
  const feature = useLoad(async () => (await get<Json>(path)).data, path);
  const [description, setDescription] = useState<string | null>(null);
  const [result, setResult] = useState<Result>(null);
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
            <DataTable label="Environments" rows={rowsOf(data?.environments ?? [])} empty="No environments." />
            <JsonView value={data} />
          </>
        )}
      </Show>
    </>
  );
}

function Listing({ scope, what, label }: { scope: Scope; what: string; label: string }) {
  const path = scoped(scope, `/flags/${what}`);
  const rows = useLoad(async () => (await get(path)).data, path);
  return (
    <>
      <h3>{label}</h3>
      <Show loaded={rows}>
        {(data) => <DataTable label={label} rows={rowsOf(data)} empty={`No ${label.toLowerCase()}.`} />}
      </Show>
    </>
  );
}

function Keys({ scope }: { scope: Scope }) {
  const path = scoped(scope, '/flags/keys');
  const keys = useLoad(async () => (await get(path)).data, path);
  const [key, setKey] = useState<{ data?: unknown; error?: unknown } | null>(null);
  const read = async (name: string) => {
    try {
      setKey({ data: (await get(`${path}${seg(name)}`)).data });
    } catch (error) {
      setKey({ error });
    }
  };
  return (
    <>
      <h3>API keys</h3>
      <Show loaded={keys}>
        {(data) => (
          <DataTable
            label="API keys"
            rows={rowsOf(data)}
            empty="No API keys."
            actions={(r) => (
              <RoleGate needs="engineer">
                <button type="button" onClick={() => void read(str(r.tokenName ?? r.name ?? r.username))}>
                  Show key
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
