import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { ApiError, type Json, type Role, reaches, type Scope, str } from './api.ts';

export interface ConsoleContext {
  role: Role | null;
  env: string;
  scope: Scope | null;
}

export const Ctx = createContext<ConsoleContext>({ role: null, env: '', scope: null });
export const useConsole = () => useContext(Ctx);

/** Controls above the caller's role are not rendered at all (the API refuses them anyway). */
export function RoleGate({ needs, children }: { needs: Role; children: ReactNode }) {
  const { role: held } = useConsole();
  return reaches(held, needs) ? children : null;
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** One GET, redone when `key` changes or on reload(). */
export function useLoad<T>(load: (() => Promise<T>) | null, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: load !== null });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what load reads
  useEffect(() => {
    if (!load) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** A 501 surface (OPS-065): its server is not configured for this scope. */
export function NotConfigured({ error }: { error: ApiError }) {
  return (
    <section className="panel not-configured" data-testid="not-configured" aria-label="Not configured">
      <h3>Not configured</h3>
      <p>{error.message}</p>
      <p className="muted">
        <code>{error.code}</code>: set the subscription's variables (see the console's README) to turn this surface on.
      </p>
    </section>
  );
}

export function ErrorPanel({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.notConfigured) return <NotConfigured error={error} />;
  const code = error instanceof ApiError ? `${error.status} ${error.code}` : 'error';
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="panel error" role="alert">
      <strong>{code}</strong> {message}
    </div>
  );
}

/** Loading, error (or not configured), else the children with the data. */
export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ReactNode }) {
  if (loaded.error) return <ErrorPanel error={loaded.error} />;
  if (loaded.data === undefined) return <p className="muted">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

const cell = (v: unknown) => {
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  const s = str(v);
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
};

/** A table of whatever rows the API returns: every scalar column, in first-seen order. */
export function DataTable({
  rows,
  columns,
  actions,
  label,
  empty = 'Nothing here.',
}: {
  rows: Json[];
  columns?: string[];
  actions?: (row: Json) => ReactNode;
  label: string;
  empty?: string;
}) {
  if (rows.length === 0) return <p className="muted">{empty}</p>;
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))].slice(0, 12);
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c}>{c}</th>
            ))}
            {actions && <th />}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no common id field
            <tr key={i}>
              {cols.map((c) => (
                <td key={c}>{cell(r[c])}</td>
              ))}
              {actions && <td className="actions">{actions(r)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A write's outcome line: done, or the refusal. */
export function Outcome({ result }: { result: { ok: true; text: string } | { ok: false; error: unknown } | null }) {
  if (!result) return null;
  if (result.ok)
    return (
      <p className="ok" role="status">
        {result.text}
      </p>
    );
  return <ErrorPanel error={result.error} />;
}

export const JsonView = ({ value }: { value: unknown }) => <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
