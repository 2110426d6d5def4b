import { useEffect, useState } from 'react';
import { get, isObject, type Json, ROLES, type Role, rowsOf, type Scope, str } from './api.ts';
import { currentEmail, currentToken, type SignIn, signOut, startSignIn } from './auth.ts';
import { BusPage } from './pages/Bus.tsx';
import { EnvironmentsPage } from './pages/Environments.tsx';
import { FlagsPage } from './pages/Flags.tsx';
import { LogSearchPage } from './pages/LogSearch.tsx';
import { OutboxPage } from './pages/Outbox.tsx';
import { PodsPage } from './pages/Pods.tsx';
import { ReleasesPage } from './pages/Releases.tsx';
import { SqlPage } from './pages/Sql.tsx';
import { TerminalPage } from './pages/Terminal.tsx';
import { Ctx, ErrorPanel, useLoad } from './ui.tsx';

/** The scoped surfaces, one page each, under #/{region}/{subscription}/{page}. */
const SCOPED = [
  ['outbox', 'Outbox'],
  ['sql', 'SQL'],
  ['bus', 'Bus'],
  ['pods', 'Pods, events, logs'],
  ['releases', 'Releases'],
  ['flags', 'Flags'],
] as const;

export interface Route {
  scope: Scope | null;
  page: string;
  rest: string[];
}

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'logs') return { scope: null, page: 'logs', rest: [] };
  if (parts.length < 2) return { scope: null, page: 'environments', rest: [] };
  const [region = '', subscription = '', page = 'outbox', ...rest] = parts;
  return { scope: { region, subscription }, page, rest };
}

export const href = (scope: Scope, page: string, ...rest: string[]) =>
  `#/${[scope.region, scope.subscription, page, ...rest].map(encodeURIComponent).join('/')}`;

function useHash() {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return hash;
}

const asRole = (v: unknown): Role | null => ((ROLES as readonly unknown[]).includes(v) ? (v as Role) : null);

/** The caller's role as the console tells it: on GET /v1/environments, else GET /v1/me. */
async function whoAmI(environments: Json): Promise<Role | null> {
  const caller = isObject(environments.caller) ? environments.caller : environments;
  const role = asRole(caller.role);
  if (role) return role;
  try {
    const me = await get<Json>('/v1/me');
    return asRole(me.data?.role) ?? asRole(isObject(me.data?.caller) ? me.data.caller.role : undefined);
  } catch {
    return null;
  }
}

export function App({ signIn }: { signIn: SignIn }) {
  const hash = useHash();
  const route = parseHash(hash);
  const needsSignIn = signIn.mode === 'identity' && !currentToken();
  const envs = useLoad(needsSignIn ? null : async () => (await get<Json>('/v1/environments')).data, 'environments');
  const [role, setRole] = useState<Role | null>(null);
  useEffect(() => {
    if (envs.data) void whoAmI(envs.data).then(setRole);
  }, [envs.data]);

  if (needsSignIn && signIn.mode === 'identity') {
    return (
      <main className="sign-in">
        <h1>Operations console</h1>
        <p>Sign in through identity to get a gateway token for the console.</p>
        <button type="button" onClick={() => void startSignIn(signIn)}>
          Sign in
        </button>
      </main>
    );
  }

  const env = envs.data ? str(envs.data.env ?? envs.data.environment ?? envs.data.name) : '';
  const scopes = envs.data ? rowsOf(envs.data, 'subscriptions', 'scopes', 'leaves', 'environments') : [];
  const scope = route.scope;

  return (
    <Ctx.Provider value={{ role, env, scope }}>
      <header className="top">
        <a href="#/" className="brand">
          Operations console
        </a>
        {env && (
          <span className="tag" data-testid="env">
            {env}
          </span>
        )}
        <label className="scope-pick">
          Scope{' '}
          <select
            aria-label="Scope"
            value={scope ? `${scope.region}/${scope.subscription}` : ''}
            onChange={(e) => {
              const [region = '', subscription = ''] = e.target.value.split('/');
              window.location.hash = region
                ? href(
                    { region, subscription },
                    route.page === 'environments' || route.page === 'logs' ? 'outbox' : route.page,
                  )
                : '#/';
            }}
          >
            <option value="">(choose)</option>
            {scopes.map((s) => {
              const v = `${str(s.region)}/${str(s.subscription)}`;
              return (
                <option key={v} value={v}>
                  {v}
                  {s.ready === false ? ' (not ready)' : ''}
                </option>
              );
            })}
          </select>
        </label>
        <span className="who" data-testid="who">
          {currentEmail() ?? ''} {role && <span className={`role role-${role}`}>{role}</span>}
        </span>
        {signIn.mode === 'identity' && (
          <button
            type="button"
            className="link"
            onClick={() => {
              signOut();
              window.location.reload();
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <nav className="side" aria-label="Surfaces">
        <a href="#/" className={route.page === 'environments' ? 'on' : ''}>
          Environments
        </a>
        {SCOPED.map(([page, label]) =>
          scope ? (
            <a key={page} href={href(scope, page)} className={route.page === page ? 'on' : ''}>
              {label}
            </a>
          ) : (
            <span key={page} className="off" title="Choose a scope first">
              {label}
            </span>
          ),
        )}
        <a href="#/logs" className={route.page === 'logs' ? 'on' : ''}>
          Log search
        </a>
      </nav>
      <main className="content">
        {envs.error ? <ErrorPanel error={envs.error} /> : <Page route={route} scopes={scopes} loading={envs.loading} />}
      </main>
    </Ctx.Provider>
  );
}

function Page({ route, scopes, loading }: { route: Route; scopes: Json[]; loading: boolean }) {
  const { scope, page, rest } = route;
  if (page === 'logs') return <LogSearchPage />;
  if (!scope) return <EnvironmentsPage scopes={scopes} loading={loading} />;
  const key = `${scope.region}/${scope.subscription}`;
  switch (page) {
    case 'outbox':
      return <OutboxPage key={key} scope={scope} service={rest[0]} />;
    case 'sql':
      return <SqlPage key={key} scope={scope} />;
    case 'bus':
      return <BusPage key={key} scope={scope} />;
    case 'pods':
      return <PodsPage key={key} scope={scope} />;
    case 'terminal':
      return <TerminalPage key={key} scope={scope} namespace={rest[0] ?? ''} pod={rest[1] ?? ''} />;
    case 'releases':
      return <ReleasesPage key={key} scope={scope} />;
    case 'flags':
      return <FlagsPage key={key} scope={scope} />;
    default:
      return <p>No page {page}.</p>;
  }
}
