import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, preValidationHookHandler, RouteShorthandOptions } from 'fastify';
import type { Can, Principal } from '../auth/principal.ts';
import {
  allowedTo,
  type CommandOptions,
  type CommandScope,
  type CommandSource,
  emptyBodyAsObject,
  handleCommand,
  requireIdempotencyKey,
} from '../command.ts';
import { Header } from '../envelope.ts';
import { IdempotencyHeaders } from '../schemas.ts';
import type { App } from './app.ts';

/**
 * Contracts as data (issue 15.1, 15.4): each service declares its error codes once, and each route
 * once (method, path, action, schemas, status, codes). The kit derives from the declaration the
 * guards, the Idempotency-Key requirement, the typed principal, the OpenAPI entry with the codes
 * per response status, the check that a route answers only codes it declared, and the shared
 * security and idempotency tests (testing/route-checks.ts).
 */

/** One error code: the HTTP status(es) it answers with, what it means, and the spec's spelling when it differs. */
export interface ErrorSpec {
  status: number | readonly number[];
  meaning: string;
  /** How the spec writes the code, when it differs from the code on the wire. */
  spec?: string;
}

export type ErrorCatalogue<C extends string = string> = Readonly<Record<C, ErrorSpec>>;

/** A service's closed catalogue of error codes. */
export const defineErrors = <const C extends string>(catalogue: Record<C, ErrorSpec>): ErrorCatalogue<C> =>
  Object.freeze(catalogue);

/** Codes the kit itself answers on every route (authentication, schema, parsing, failures). */
export const KIT_ERRORS = defineErrors({
  unauthenticated: { status: 401, meaning: 'No acceptable proof of who is calling' },
  forbidden: { status: 403, meaning: 'The caller may not take this action' },
  validation_failed: { status: 422, meaning: 'The request does not match the schema; field names the part' },
  bad_request: { status: 400, meaning: 'The request cannot be read' },
  internal_error: { status: 500, meaning: 'An unexpected failure; nothing was committed' },
  auth_keys_unavailable: { status: 503, meaning: "The identity service's signing keys cannot be fetched" },
  identity_unavailable: { status: 503, meaning: 'The identity service does not answer a grants lookup' },
});

/** Codes the kit answers on routes that take a body (every method but GET). */
export const KIT_BODY_ERRORS = defineErrors({
  malformed_json: { status: 400, meaning: 'The request body is not valid JSON' },
  unsupported_media_type: { status: 415, meaning: 'The body is not application/json' },
  body_too_large: { status: 413, meaning: 'The request body is larger than the limit' },
});

/** Codes the kit answers on command routes (the Idempotency-Key contract). */
export const KIT_COMMAND_ERRORS = defineErrors({
  idempotency_key_required: { status: 400, meaning: 'A command needs an Idempotency-Key header' },
  invalid_idempotency_key: { status: 400, meaning: 'The Idempotency-Key is not 1-255 visible ASCII characters' },
  idempotency_key_reused: { status: 409, meaning: 'The Idempotency-Key was used for another request' },
});

export type KitErrorCode = keyof typeof KIT_ERRORS | keyof typeof KIT_BODY_ERRORS | keyof typeof KIT_COMMAND_ERRORS;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route's handler gets: the validated parts of the request, the caller, and Fastify's request and reply. */
export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** The caller the action's guard admitted (for an action open to anyone, it may be absent: read `req.principal`). */
  principal: Principal;
  req: FastifyRequest;
  reply: FastifyReply;
}

type StaticOr<S> = S extends TSchema ? Static<S> : undefined;

/** One route, as a service declares it. */
export interface RouteSpec<
  A extends string,
  E extends string,
  D,
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
  C = CommandScope,
> {
  method: Method;
  /** Fastify's path, `:param` for parameters. */
  url: string;
  /** The policy action that guards the route (401, then 403, before anything else). */
  action: A;
  summary: string;
  description?: string;
  tags?: readonly string[];
  body?: B;
  query?: Q;
  params?: P;
  /** The success response schema (an Envelope). */
  response: TSchema;
  /** The success status (default 200). */
  status?: number;
  /**
   * Other success statuses the route answers with the same body (a handler that says which: e.g.
   * 201 for a created identity, 200 for a changed one).
   */
  otherStatuses?: readonly number[];
  /** The service's codes this route can answer (the kit's own are implied). */
  errors?: readonly E[];
  /** A command: runs once per Idempotency-Key (default: every method but GET). */
  command?: boolean;
  /** An absent body reads as {} (commands whose data is optional). */
  emptyBody?: boolean;
  /**
   * More checks of who may call, right after the action's guard: their 403s come before a
   * command's 400 for a missing Idempotency-Key (401, 403, 400, 422 stays the order).
   */
  guard?: readonly preValidationHookHandler[];
  /** More preValidation hooks, after the guard and the key requirement. */
  preValidation?: readonly preValidationHookHandler[];
  /** How the route's schema errors are answered, when some fields have codes of their own (default validation_failed). */
  schemaErrorFormatter?: RouteShorthandOptions['schemaErrorFormatter'];
  /** More schema fields (e.g. headers a route reads). */
  schema?: Record<string, unknown>;
  /** Checks before the command's transaction opens (e.g. a required reason). */
  check?: (input: RouteInput<StaticOr<B>, StaticOr<Q>, StaticOr<P>>, deps: D) => void | Promise<void>;
  /** The command's key scope and pre-transaction work. */
  options?: (input: RouteInput<StaticOr<B>, StaticOr<Q>, StaticOr<P>>, deps: D) => CommandOptions;
  /** A command's work in its transaction; its result is sent with `status` (the kit runs handleCommand). */
  run?: (ctx: C, input: RouteInput<StaticOr<B>, StaticOr<Q>, StaticOr<P>>, deps: D) => Promise<unknown>;
  /** Any other route: answers itself (reply.envelope...). */
  handler?: (input: RouteInput<StaticOr<B>, StaticOr<Q>, StaticOr<P>>, deps: D) => Promise<unknown>;
}

/** A declared route with its types erased, as registerRoutes and the route checks read it. */
// biome-ignore lint/suspicious/noExplicitAny: the handler's input types were checked at the declaration
export type DeclaredRoute<D = any> = RouteSpec<string, string, D, any, any, any, any>;

/** Whether a declared route is a command (Idempotency-Key, replay, 409). */
export const isCommandRoute = (r: Pick<DeclaredRoute, 'method' | 'command'>) => r.command ?? r.method !== 'GET';

/** "POST /v1/accounts/{id}/postability": how tests and the OpenAPI name a route. */
export const routeName = (r: Pick<DeclaredRoute, 'method' | 'url'>) =>
  `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`;

const statusesOf = (s: ErrorSpec) => (typeof s.status === 'number' ? [s.status] : [...s.status]);

/** Every code a route may answer, with the statuses it may answer it with. */
export function allowedErrors(route: DeclaredRoute, catalogue: ErrorCatalogue): Map<string, number[]> {
  const allowed = new Map<string, number[]>();
  const add = (cat: ErrorCatalogue, codes: readonly string[]) => {
    for (const code of codes) {
      const spec = cat[code];
      if (!spec) throw new Error(`${routeName(route)} declares ${code}, which the service's catalogue lacks`);
      allowed.set(code, [...new Set([...(allowed.get(code) ?? []), ...statusesOf(spec)])]);
    }
  };
  add(KIT_ERRORS, Object.keys(KIT_ERRORS));
  if (route.method !== 'GET') add(KIT_BODY_ERRORS, Object.keys(KIT_BODY_ERRORS));
  if (isCommandRoute(route)) add(KIT_COMMAND_ERRORS, Object.keys(KIT_COMMAND_ERRORS));
  add({ ...KIT_ERRORS, ...KIT_BODY_ERRORS, ...KIT_COMMAND_ERRORS, ...catalogue }, route.errors ?? []);
  return allowed;
}

/** The envelope header as one shared schema, so each route's error responses refer to it. */
export const ERROR_HEADER = 'ErrorHeader';
export const ErrorHeader = Type.Object(Header.properties, { $id: ERROR_HEADER });

/** The error envelope of one status, its `errors[].code` an enum of the codes a route answers there. */
const errorEnvelopeOf = (codes: string[], catalogue: ErrorCatalogue) =>
  Type.Object(
    {
      header: Type.Ref(ERROR_HEADER),
      payload: Type.Object({
        errors: Type.Array(
          Type.Object({
            code: Type.Unsafe<string>({ type: 'string', enum: codes }),
            message: Type.String(),
            field: Type.Optional(Type.String()),
            value: Type.Optional(Type.Unknown()),
          }),
        ),
      }),
    },
    { description: codes.map((c) => `${c}: ${catalogue[c]?.meaning ?? ''}`).join('; ') },
  );

/** The route's error responses: one per status it can answer, listing the codes of that status. */
export function errorResponses(allowed: Map<string, number[]>, catalogue: ErrorCatalogue) {
  const all = { ...KIT_ERRORS, ...KIT_BODY_ERRORS, ...KIT_COMMAND_ERRORS, ...catalogue };
  const byStatus = new Map<number, string[]>();
  for (const [code, statuses] of allowed) for (const s of statuses) byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([s, codes]) => [String(s), errorEnvelopeOf(codes.sort(), all)]),
  );
}

/** Route config the kit's error handler reads: the codes (and their statuses) the route may answer. */
export interface DeclaredRouteConfig {
  declaredErrors?: Map<string, number[]>;
}

/**
 * The codes of `details` that the route did not declare at `status`, or [] (a route registered
 * without a declaration declares nothing and is not checked).
 */
export function undeclaredCodes(
  config: DeclaredRouteConfig | undefined,
  status: number,
  details: readonly { code: string }[],
): string[] {
  const allowed = config?.declaredErrors;
  if (!allowed) return [];
  return details.map((d) => d.code).filter((c) => !allowed.get(c)?.includes(status));
}

/** The service half of declared routes: its `can` (or how its deps hold it) and its error catalogue. */
export interface RouteService<A extends string, E extends string, D = unknown> {
  can: Can<A> | ((deps: D) => Can<A>);
  errors: ErrorCatalogue<E>;
}

/**
 * A service's route declarer: `route({...})` types the handler's input from the schemas and the
 * codes from the catalogue; `register(app, deps, routes)` registers them with everything derived.
 */
export function declareRoutes<
  A extends string,
  E extends string,
  // biome-ignore lint/suspicious/noExplicitAny: any service's tables
  D extends CommandSource<any>,
  /** What a command's work runs with (the service's typed CommandScope). */
  C = CommandScope,
>(svc: RouteService<A, E, D>) {
  return {
    route: <
      B extends TSchema | undefined = undefined,
      Q extends TSchema | undefined = undefined,
      P extends TSchema | undefined = undefined,
    >(
      spec: RouteSpec<A, E | KitErrorCode, D, B, Q, P, C>,
    ): DeclaredRoute<D> => spec as DeclaredRoute<D>,
    register: (app: App, deps: D, routes: readonly DeclaredRoute<D>[]) => registerRoutes(app, svc, deps, routes),
    errors: svc.errors,
  };
}

/** Registers declared routes: guard from the action, key requirement for commands, schemas, codes, handler. */
// biome-ignore lint/suspicious/noExplicitAny: any service's tables
export function registerRoutes<A extends string, D extends CommandSource<any>>(
  app: App,
  svc: RouteService<A, string, D>,
  deps: D,
  routes: readonly DeclaredRoute<D>[],
) {
  const can = typeof svc.can === 'function' && !('decide' in svc.can) ? svc.can(deps) : (svc.can as Can<A>);
  for (const r of routes) {
    if (Boolean(r.run) === Boolean(r.handler)) throw new Error(`${routeName(r)}: declare exactly one of run, handler`);
    const command = isCommandRoute(r);
    const status = r.status ?? 200;
    const allowed = allowedErrors(r, svc.errors);
    const input = (req: FastifyRequest, reply: FastifyReply) => ({
      body: req.body,
      query: req.query,
      params: req.params,
      principal: req.principal as Principal,
      req,
      reply,
    });
    const run = r.run;
    const handler = run
      ? async (req: FastifyRequest, reply: FastifyReply) => {
          const i = input(req, reply);
          await r.check?.(i, deps);
          return handleCommand(deps, req, reply, (ctx) => run(ctx as never, i, deps), status, r.options?.(i, deps));
        }
      : async (req: FastifyRequest, reply: FastifyReply) =>
          (r.handler as NonNullable<typeof r.handler>)(input(req, reply), deps);
    app.route({
      method: r.method,
      url: r.url,
      preValidation: [
        allowedTo(can, r.action as A),
        ...(r.guard ?? []),
        ...(command ? [requireIdempotencyKey] : []),
        ...(r.emptyBody ? [emptyBodyAsObject] : []),
        ...(r.preValidation ?? []),
      ],
      ...(r.schemaErrorFormatter ? { schemaErrorFormatter: r.schemaErrorFormatter } : {}),
      config: { declaredErrors: allowed } satisfies DeclaredRouteConfig as never,
      schema: {
        ...(r.tags ? { tags: [...r.tags] } : {}),
        summary: r.summary,
        ...(r.description ? { description: r.description } : {}),
        ...(command ? { headers: IdempotencyHeaders } : {}),
        ...(r.params ? { params: r.params } : {}),
        ...(r.query ? { querystring: r.query } : {}),
        ...(r.body ? { body: r.body } : {}),
        ...r.schema,
        response: {
          [status]: r.response,
          ...Object.fromEntries((r.otherStatuses ?? []).map((s) => [s, r.response])),
          ...errorResponses(allowed, svc.errors),
        },
      },
      handler: handler as never,
    });
  }
}
