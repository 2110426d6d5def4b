import { Envelope, unprocessable } from '@platform/kit';
import { findModel, findProvider } from '../domain/catalog.ts';
import { CatalogModelView, CatalogView, catalogView, ModelQuery, modelView } from '../schemas/catalog.ts';
import { type RouteModule, reader } from './deps.ts';

const tags = ['catalog'];

/** The catalog routes (spec 3, Broker): providers, models, limits and prices. */
export const catalogRoutes: RouteModule = (app, deps) => {
  // The catalog and the keys are fixed for the process's life: the answer is built once.
  const view = catalogView(deps.catalog, deps.endpoints);
  const available = new Set(view.providers.filter((p) => p.available).map((p) => p.id));

  app.get(
    '/v1/catalog',
    {
      preValidation: reader('read_catalog'),
      schema: {
        tags,
        summary:
          'Providers, models, limits and prices (micro-dollars per million tokens); available=false when the key is missing',
        response: { 200: Envelope(CatalogView) },
      },
    },
    async (_req, reply) => reply.envelope(view),
  );

  app.get(
    '/v1/catalog/model',
    {
      preValidation: reader('read_catalog'),
      schema: {
        tags,
        summary: 'One model by provider and wire_id (422 unknown_provider or unknown_model)',
        querystring: ModelQuery,
        response: { 200: Envelope(CatalogModelView) },
      },
    },
    async (req, reply) => {
      const { provider, wire_id } = req.query;
      if (!findProvider(deps.catalog, provider)) {
        throw unprocessable('unknown_provider', `No provider ${provider} in the catalog`, 'querystring/provider');
      }
      const model = findModel(deps.catalog, provider, wire_id);
      if (!model) {
        throw unprocessable('unknown_model', `${provider} offers no model ${wire_id}`, 'querystring/wire_id');
      }
      return reply.envelope(modelView(model, available.has(provider)));
    },
  );
};
