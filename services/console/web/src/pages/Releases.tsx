import { useState } from 'react';
import { get, type Json, rowsOf, type Scope, scoped, seg, str, write } from '../api.ts';
import { DataTable, Outcome, RoleGate, Show, useLoad } from '../ui.tsx';

type Release = { namespace: string; name: string };

/** Helm releases, a release's history, and an admin's rollback behind a confirmation step. */
export function ReleasesPage({ scope }: { scope: Scope }) {
  const releases = useLoad(async () => (await get(scoped(scope, '/releases'))).data, 'releases');
  const [open, setOpen] = useState<Release | null>(null);
  return (
    <section>
      <h2>Releases</h2>
      <Show loaded={releases}>
        {(data) => (
          <DataTable
            label="Releases"
            rows={rowsOf(data, 'releases')}
            empty="No releases."
            actions={(r) => (
              <button type="button" onClick={() => setOpen({ namespace: str(r.namespace), name: str(r.name) })}>
                History
              </button>
            )}
          />
        )}
      </Show>
      {open && <History key={`${open.namespace}/${open.name}`} scope={scope} release={open} onDone={releases.reload} />}
    </section>
  );
}

const isDeployed = (r: Json) => str(r.status).toLowerCase() === 'deployed';

function History({ scope, release, onDone }: { scope: Scope; release: Release; onDone: () => void }) {
  const base = scoped(scope, `/releases${seg(release.namespace, release.name)}`);
  const history = useLoad(async () => (await get(`${base}/history`)).data, base);
  const [confirm, setConfirm] = useState<number | null>(null);
  const [why, setWhy] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: true; text: string } | { ok: false; error: unknown } | null>(null);
  const rollback = async (revision: number) => {
    setBusy(true);
    try {
      await write('POST', `${base}/rollback`, { revision }, why || undefined);
      setResult({ ok: true, text: `Rolled ${release.name} back to revision ${revision}.` });
      setConfirm(null);
      setWhy('');
      history.reload();
      onDone();
    } catch (error) {
      setResult({ ok: false, error });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h3>
        History of {release.namespace}/{release.name}
      </h3>
      <Outcome result={result} />
      <Show loaded={history}>
        {(data) => (
          <DataTable
            label="Release history"
            rows={rowsOf(data, 'history', 'revisions')}
            actions={(r) =>
              isDeployed(r) ? (
                <span className="muted">deployed</span>
              ) : (
                <RoleGate needs="admin">
                  <button type="button" onClick={() => setConfirm(Number(r.revision))}>
                    Roll back to {str(r.revision)}
                  </button>
                </RoleGate>
              )
            }
          />
        )}
      </Show>
      {confirm !== null && (
        <div className="confirm" role="dialog" aria-label="Confirm rollback">
          <p>
            Roll <strong>{release.name}</strong> in <strong>{release.namespace}</strong> back to revision{' '}
            <strong>{confirm}</strong>? This changes what runs in the cluster.
          </p>
          <label>
            Why (logged) <input aria-label="Why" value={why} onChange={(e) => setWhy(e.target.value)} size={40} />
          </label>
          <p>
            <button type="button" className="danger" disabled={busy} onClick={() => void rollback(confirm)}>
              Confirm rollback
            </button>
            <button type="button" onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </p>
        </div>
      )}
    </>
  );
}
