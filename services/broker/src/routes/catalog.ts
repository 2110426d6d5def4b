import { Envelope, unprocessable } from '@platform/kit';
import { findModel, findProvider } from '../domain/catalog.ts';
import { CatalogModelView, CatalogView, catalogView, ModelQuery, modelView } from '../schemas/catalog.ts';
import { type RouteDeps, type Routes, route } from './deps.ts';

const tags = ['catalog'];

/** The catalog and the keys are fixed for the process's life: each app's answer is built once. */
const views = new WeakMap<RouteDeps, ReturnType<typeof catalogView>>();
function viewOf(deps: RouteDeps) {
  let view = views.get(deps);
  if (!view) {
    view = catalogView(deps.catalog, deps.endpoints);
    views.set(deps, view);
  }
  return view;
}

/** The catalog routes (spec 3, Broker): providers, models, limits and prices. */
export const CATALOG_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/catalog',
    action: 'read_catalog',
    tags,
    summary:
      'Providers, models, limits and prices (micro-dollars per million tokens); available=false when the key is missing',
    response: Envelope(CatalogView),
    handler: async ({ reply }, deps) => reply.envelope(viewOf(deps)),
  }),

  route({
    method: 'GET',
    url: '/v1/catalog/model',
    action: 'read_catalog',
    tags,
    summary: 'One model by provider and wire_id (422 unknown_provider or unknown_model)',
    query: ModelQuery,
    response: Envelope(CatalogModelView),
    errors: ['unknown_provider', 'unknown_model'],
    handler: async ({ query, reply }, deps) => {
      const { provider, wire_id } = query;
      if (!findProvider(deps.catalog, provider)) {
        throw unprocessable('unknown_provider', `No provider ${provider} in the catalog`, 'querystring/provider');
      }
      const model = findModel(deps.catalog, provider, wire_id);
      if (!model) {
        throw unprocessable('unknown_model', `${provider} offers no model ${wire_id}`, 'querystring/wire_id');
      }
      const available = viewOf(deps).providers.some((p) => p.id === provider && p.available);
      return reply.envelope(modelView(model, available));
    },
  }),
];
