import { AppError, Envelope } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { FlagsProxy } from '../flags/flags.ts';
import { type FlagServer, UnleashAdmin } from '../flags/unleash.ts';
import { P, ScopeParams } from '../schemas/common.ts';
import {
  ApplicationBody,
  ApplicationParams,
  CreateFeatureBody,
  CreateServiceAccountBody,
  CreateStrategyBody,
  DetailsBody,
  EnvParams,
  FeatureParams,
  KeyParams,
  KeyView,
  ProjectParams,
  ServiceAccountBody,
  ServiceAccountParams,
  StrategyBody,
  StrategyParams,
  Upstream,
  UpstreamList,
  ValuesBody,
} from '../schemas/flags.ts';
import { logWrite, type WriteWhy } from '../writes.ts';
import type { RouteDeps, Routes } from './deps.ts';
import { route } from './deps.ts';

const tags = ['flags'];
const F = `${P}/flags`;

export const flagsNotConfigured = (key: string, why: string) =>
  new AppError(501, 'flags_not_configured', `Feature flags are not configured for ${key}: ${why}`);

/**
 * The subscription's flag server, or 501 flags_not_configured before any call: no flag-server
 * block (OPS-062), its URL unset (OPS-063) or its token unset. Each subscription reaches its own
 * server only (OPS-021).
 */
function flagsOf(deps: RouteDeps, params: { region: string; subscription: string }): FlagsProxy {
  const s = deps.registry.resolve(params.region, params.subscription);
  if (!s.flags) throw flagsNotConfigured(s.key, 'the subscription has no flag-server block');
  if (!s.flags.url) throw flagsNotConfigured(s.key, `${s.vars?.flags?.url ?? 'its URL variable'} is unset`);
  if (!s.flags.token) throw flagsNotConfigured(s.key, `${s.vars?.flags?.token ?? 'its token variable'} is unset`);
  const server: FlagServer = { url: s.flags.url, token: s.flags.token };
  const client = deps.flagServer
    ? deps.flagServer(server)
    : new UnleashAdmin(server, { timeoutMs: deps.config.CONSOLE_FLAGS_TIMEOUT_MS });
  return new FlagsProxy(client);
}

const UPSTREAM = [
  'scope_not_found',
  'flags_not_configured',
  'flag_server_not_found',
  'flag_server_bad_request',
  'flag_server_unavailable',
] as const;
const WRITE_UPSTREAM = [...UPSTREAM, 'flag_server_conflict', 'flag_server_unprocessable'] as const;

/** Where a flag write goes, as its console.write line names it (names only, never a value). */
const target = (p: { region: string; subscription: string }, rest: string) =>
  `${p.region}/${p.subscription}/flags/${rest}`;

/**
 * A flag write: the server resolved (501 before anything), then once per Idempotency-Key the
 * console.write line and the call (OPS-060).
 */
async function write(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: Parameters<RouteDeps['writeKeys']['run']>[1],
  params: { region: string; subscription: string },
  line: { action: string; target: string; why?: WriteWhy },
  call: (flags: FlagsProxy) => Promise<unknown>,
  status = 200,
) {
  const flags = flagsOf(deps, params);
  return deps.writeKeys.run(req, reply, async () => {
    logWrite(req, line);
    return { status, data: await call(flags) };
  });
}

/**
 * Feature flags and service accounts over the subscription's Unleash admin API (spec 3): reads for
 * a viewer (OPS-052), writes for an engineer (OPS-053, OPS-054), a key for an engineer (OPS-055).
 */
export const FLAG_ROUTES: Routes = [
  route({
    method: 'GET',
    url: `${F}/projects/:project/features`,
    role: 'viewer',
    tags,
    summary: "A project's feature flags",
    params: ProjectParams,
    response: Envelope(UpstreamList),
    errors: [...UPSTREAM],
    handler: async ({ params, reply }, deps) => reply.envelope(await flagsOf(deps, params).features(params.project)),
  }),
  route({
    method: 'POST',
    url: `${F}/projects/:project/features`,
    role: 'engineer',
    tags,
    summary: 'Creates a feature flag (a taken name is the server’s 409, passed on)',
    params: ProjectParams,
    body: CreateFeatureBody,
    status: 201,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        { action: 'flag.feature.create', target: target(params, `${params.project}/${body.data.name}`), why: body.why },
        (f) => f.createFeature(params.project, body.data),
        201,
      ),
  }),
  route({
    method: 'GET',
    url: `${F}/projects/:project/features/:feature`,
    role: 'viewer',
    tags,
    summary: "A feature flag's details and its environments",
    params: FeatureParams,
    response: Envelope(Upstream),
    errors: [...UPSTREAM],
    handler: async ({ params, reply }, deps) =>
      reply.envelope(await flagsOf(deps, params).feature(params.project, params.feature)),
  }),
  route({
    method: 'PATCH',
    url: `${F}/projects/:project/features/:feature`,
    role: 'engineer',
    tags,
    summary: "Changes a flag's details: read first, the sent fields laid over, sent whole with the read's version",
    params: FeatureParams,
    body: DetailsBody,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        { action: 'flag.details.write', target: target(params, `${params.project}/${params.feature}`), why: body.why },
        (f) => f.updateDetails(params.project, params.feature, body.data),
      ),
  }),
  route({
    method: 'GET',
    url: `${F}/projects/:project/features/:feature/environments/:environment/strategies`,
    role: 'viewer',
    tags,
    summary: "A flag's strategies in one environment",
    params: EnvParams,
    response: Envelope(Upstream),
    errors: [...UPSTREAM],
    handler: async ({ params, reply }, deps) =>
      reply.envelope(await flagsOf(deps, params).strategies(params.project, params.feature, params.environment)),
  }),
  route({
    method: 'POST',
    url: `${F}/projects/:project/features/:feature/environments/:environment/strategies`,
    role: 'engineer',
    tags,
    summary: 'Adds a strategy to a flag in one environment',
    params: EnvParams,
    body: CreateStrategyBody,
    status: 201,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        {
          action: 'flag.strategy.create',
          target: target(params, `${params.project}/${params.feature}/${params.environment}/strategies`),
          why: body.why,
        },
        (f) => f.createStrategy(params.project, params.feature, params.environment, body.data),
        201,
      ),
  }),
  route({
    method: 'PATCH',
    url: `${F}/projects/:project/features/:feature/environments/:environment/strategies/:strategy`,
    role: 'engineer',
    tags,
    summary:
      "Changes a strategy: read first, the sent fields laid over (parameters key by key), sent whole with the read's version",
    params: StrategyParams,
    body: StrategyBody,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        {
          action: 'flag.strategy.write',
          target: target(
            params,
            `${params.project}/${params.feature}/${params.environment}/strategies/${params.strategy}`,
          ),
          why: body.why,
        },
        (f) => f.updateStrategy(params.project, params.feature, params.environment, params.strategy, body.data),
      ),
  }),
  route({
    method: 'GET',
    url: `${F}/projects/:project/features/:feature/environments/:environment/strategies/:strategy/values`,
    role: 'viewer',
    tags,
    summary: "A flag's values in one environment: the variants of one of its strategies",
    params: StrategyParams,
    response: Envelope(Upstream),
    errors: [...UPSTREAM],
    handler: async ({ params, reply }, deps) =>
      reply.envelope(
        await flagsOf(deps, params).values(params.project, params.feature, params.environment, params.strategy),
      ),
  }),
  route({
    method: 'PATCH',
    url: `${F}/projects/:project/features/:feature/environments/:environment/strategies/:strategy/values`,
    role: 'engineer',
    tags,
    summary:
      "Changes a flag's values (a strategy's variants): read first, each sent variant laid over the read one of its name, the strategy sent whole with the read's version",
    params: StrategyParams,
    body: ValuesBody,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        {
          action: 'flag.values.write',
          target: target(
            params,
            `${params.project}/${params.feature}/${params.environment}/strategies/${params.strategy}/values`,
          ),
          why: body.why,
        },
        (f) => f.updateValues(params.project, params.feature, params.environment, params.strategy, body.data.variants),
      ),
  }),
  route({
    method: 'GET',
    url: `${F}/applications`,
    role: 'viewer',
    tags,
    summary: 'The applications the flag server knows',
    params: ScopeParams,
    response: Envelope(UpstreamList),
    errors: [...UPSTREAM],
    handler: async ({ params, reply }, deps) => reply.envelope(await flagsOf(deps, params).applications()),
  }),
  route({
    method: 'PATCH',
    url: `${F}/applications/:application`,
    role: 'engineer',
    tags,
    summary: "Changes an application's description, url, color or icon (read first, sent whole)",
    params: ApplicationParams,
    body: ApplicationBody,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        {
          action: 'flag.application.write',
          target: target(params, `applications/${params.application}`),
          why: body.why,
        },
        (f) => f.updateApplication(params.application, body.data),
      ),
  }),
  route({
    method: 'GET',
    url: `${F}/service-accounts`,
    role: 'viewer',
    tags,
    summary: 'Service accounts, without any key',
    params: ScopeParams,
    response: Envelope(UpstreamList),
    errors: [...UPSTREAM],
    handler: async ({ params, reply }, deps) => reply.envelope(await flagsOf(deps, params).serviceAccounts()),
  }),
  route({
    method: 'POST',
    url: `${F}/service-accounts`,
    role: 'engineer',
    tags,
    summary: 'Creates a service account',
    params: ScopeParams,
    body: CreateServiceAccountBody,
    status: 201,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        {
          action: 'flag.service_account.create',
          target: target(params, `service-accounts/${body.data.username}`),
          why: body.why,
        },
        (f) => f.createServiceAccount(body.data),
        201,
      ),
  }),
  route({
    method: 'PATCH',
    url: `${F}/service-accounts/:id`,
    role: 'engineer',
    tags,
    summary: 'Changes a service account (read first, sent whole with its version)',
    params: ServiceAccountParams,
    body: ServiceAccountBody,
    response: Envelope(Upstream),
    errors: [...WRITE_UPSTREAM],
    handler: async ({ params, body, req, reply }, deps) =>
      write(
        deps,
        req,
        reply,
        params,
        {
          action: 'flag.service_account.write',
          target: target(params, `service-accounts/${params.id}`),
          why: body.why,
        },
        (f) => f.updateServiceAccount(params.id, body.data),
      ),
  }),
  route({
    method: 'GET',
    url: `${F}/keys`,
    role: 'viewer',
    tags,
    summary: "The flag server's API keys, never their secrets (each is its own engineer read)",
    params: ScopeParams,
    response: Envelope(UpstreamList),
    errors: [...UPSTREAM],
    handler: async ({ params, reply }, deps) => reply.envelope(await flagsOf(deps, params).keys()),
  }),
  route({
    method: 'GET',
    url: `${F}/keys/:name`,
    role: 'engineer',
    tags,
    summary: 'One API key with its secret: an engineer read, logged with who asked and never the key',
    params: KeyParams,
    response: Envelope(KeyView),
    errors: [...UPSTREAM, 'key_not_found'],
    handler: async ({ params, req, reply }, deps) => {
      const flags = flagsOf(deps, params);
      logWrite(req, { action: 'flag.key.read', target: target(params, `keys/${params.name}`) });
      return reply.envelope(await flags.key(params.name));
    },
  }),
];
