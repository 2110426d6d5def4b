import { Envelope } from '@platform/kit';
import type { CatalogLeaf } from '../registry/catalog.ts';
import type { ResolvedScope } from '../registry/registry.ts';
import { Caller, Environments } from '../schemas/environments.ts';
import { type Routes, route } from './deps.ts';

const tags = ['environments'];

function subscriptionView(leaf: CatalogLeaf, s: ResolvedScope) {
  const v = s.vars;
  return {
    region: leaf.region,
    subscription: leaf.subscription,
    ready: s.ready,
    parts: {
      cluster: { variable: v?.cluster.kubeconfig ?? null, configured: Boolean(s.kubeconfig) },
      bus: { variable: v?.bus.url ?? null, configured: Boolean(s.busUrl || s.bus) },
      database: { variable: v?.database.url ?? null, configured: Boolean(s.databaseUrl || s.pglite) },
      flags: v?.flags ? { variable: v.flags.url, configured: Boolean(s.flags?.url) } : null,
    },
    services: leaf.services,
    apps: leaf.apps,
    gateways: leaf.gateways,
    processes: leaf.processes,
    domains: leaf.domains,
  };
}

export const ENVIRONMENT_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/environments',
    role: 'viewer',
    tags,
    summary:
      "The environment (ENV) and every region/subscription of the catalog with what is deployed there, whether it is ready, and the caller's role",
    response: Envelope(Environments),
    handler: async ({ req, reply }, deps) =>
      reply.envelope({
        env: deps.config.ENV,
        caller: { email: req.principal?.email ?? '', role: req.consoleRole ?? 'viewer' },
        subscriptions: deps.registry
          .leaves()
          .map((leaf) => subscriptionView(leaf, deps.registry.resolve(leaf.region, leaf.subscription))),
      }),
  }),
  route({
    method: 'GET',
    url: '/v1/me',
    role: 'viewer',
    tags,
    summary: "The caller's email and console role (the web UI hides controls above it)",
    response: Envelope(Caller),
    handler: async ({ req, reply }) =>
      reply.envelope({ email: req.principal?.email ?? '', role: req.consoleRole ?? 'viewer' }),
  }),
];
