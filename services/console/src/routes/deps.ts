import {
  type App,
  type CommandSource,
  type DeclaredRoute,
  declareRoutes,
  type KitErrorCode,
  type Principal,
  type RouteSpec,
} from '@platform/kit';
import type { TSchema } from '@sinclair/typebox';
import type { ClusterClient } from '../cluster/client.ts';
import type { ConsoleConfig } from '../config.ts';
import { type Role, type RoleLists, requires } from '../domain/roles.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { FlagServer, UnleashAdmin } from '../flags/unleash.ts';
import type { DatadogLogs } from '../logs/datadog.ts';
import type { Registry } from '../registry/registry.ts';
import type { ReleaseManager } from '../releases/helm.ts';
import type { ScopeBuses } from '../scope/buses.ts';
import type { ScopeDatabases } from '../scope/databases.ts';
import type { WriteKeys } from '../writes.ts';

/** What the console's routes work with. Area helpers add their clients here (optional fields). */
export interface RouteDeps {
  config: ConsoleConfig;
  clock: () => Date;
  /** The scope resolver: catalog leaves joined with the scopes input and the environment. */
  registry: Registry;
  roles: RoleLists;
  /** Each subscription's database, opened on first use. */
  databases: ScopeDatabases;
  /** Each subscription's bus, read through an inspector (never consumed). */
  buses: ScopeBuses;
  /** Replays of write keys (the console has no database). */
  writeKeys: WriteKeys;
  /** Releases: the release manager (default: Helm at HELM_BIN); tests pass the fake helm's. */
  releases?: ReleaseManager;
  /** Feature flags: the admin client for a subscription's flag server (default: Unleash over fetch). */
  flagServer?: (server: FlagServer) => UnleashAdmin;
  /** Cluster: the client for a kubeconfig path (default: @kubernetes/client-node). */
  cluster?: (kubeconfigPath: string) => ClusterClient;
  /** Log search: Datadog's client (default: from DD_* configuration). */
  logs?: DatadogLogs;
  /** Things to close when the app closes (pools, bus connections, child processes). */
  onClose: (close: () => Promise<void>) => void;
}

/**
 * The kit's `can` for every console route: any caller the gateway admitted passes (no caller is
 * 401); the route's own `requires(role)` hook then decides (403 insufficient_role). The console
 * has no policy engine (OPS-041), only its role table.
 */
const signedIn = Object.assign((p: Principal) => Boolean(p), {
  decide: (p: Principal | null) =>
    p ? ({ allowed: true } as const) : ({ allowed: false, refusal: 'unauthenticated' } as const),
});

// The console runs no kit commands (it has no database): its writes are handlers, so the
// CommandSource the declarer asks for is never read.
type Source = RouteDeps & CommandSource;

const declarer = declareRoutes<'signed_in', ErrorCode, Source>({ can: signedIn, errors: ERRORS });

/** A console route: the kit's declaration plus the role it needs and whether it takes ?access_token. */
export type ConsoleRoute = DeclaredRoute<Source> & { role: Role; queryToken?: boolean };
export type Routes = readonly ConsoleRoute[];

/**
 * Declares a route: `role` is the one role it needs (viewer, engineer, admin), enforced by the
 * `requires(role)` hook before anything else of the route runs; `queryToken` admits the gateway
 * token as ?access_token= (tail and terminal only, OPS-017/018); `hidden` leaves it out of the
 * OpenAPI (OPS-016).
 */
export function route<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
>(
  spec: Omit<RouteSpec<'signed_in', ErrorCode | KitErrorCode, Source, B, Q, P>, 'action'> & {
    role: Role;
    queryToken?: boolean;
    hidden?: boolean;
  },
): ConsoleRoute {
  const { role, queryToken, hidden, ...rest } = spec;
  return {
    ...(rest as unknown as DeclaredRoute<Source>),
    action: 'signed_in',
    role,
    queryToken,
    guard: [requires(role), ...(spec.guard ?? [])],
    errors: [...new Set([...(spec.errors ?? []), 'insufficient_role' as const])],
    ...(hidden ? { schema: { ...spec.schema, hide: true } } : {}),
  };
}

/** Registers declared routes; those that take a query token are marked for the authenticator. */
export function register(app: App, deps: RouteDeps, routes: Routes): void {
  const marked = new Set(routes.filter((r) => r.queryToken).map((r) => `${r.method} ${r.url}`));
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat())
      if (marked.has(`${m} ${r.url}`)) r.config = { ...(r.config as object), queryToken: true } as never;
  });
  declarer.register(app, deps as Source, routes);
}

/** A route registered by hand (a WebSocket, a raw stream): it calls `requires(role)` itself. */
export type RawRouteModule = (app: App, deps: RouteDeps) => Promise<void> | void;
