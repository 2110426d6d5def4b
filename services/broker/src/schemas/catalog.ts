import { type Static, Type } from '@sinclair/typebox';
import type { ProviderEndpoint } from '../config.ts';
import type { Catalog, CatalogModel } from '../domain/catalog.ts';

const Api = Type.Union([
  Type.Literal('chat'),
  Type.Literal('responses'),
  Type.Literal('messages'),
  Type.Literal('speech'),
  Type.Literal('transcription'),
]);

/** A provider as callers see it: never its key nor its address. */
export const CatalogProviderView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('openai'), Type.Literal('anthropic')]),
  apis: Type.Array(Api),
  available: Type.Boolean({ description: 'false when the broker holds no key for this provider (relays answer 503)' }),
});

export const CatalogModelView = Type.Object({
  provider: Type.String(),
  wire_id: Type.String({ description: 'The model id the provider API takes' }),
  name: Type.String(),
  available: Type.Boolean({ description: "The model's provider is available" }),
  limits: Type.Object({ context_window: Type.Integer(), max_output_tokens: Type.Integer() }),
  prices: Type.Object(
    { input: Type.Integer(), output: Type.Integer(), cache_read: Type.Integer() },
    { description: 'Micro-dollars per million tokens (per million characters for speech)' },
  ),
  family: Type.Union([Type.String(), Type.Null()], { description: 'Routing family; null when not routable' }),
  tier: Type.Union([Type.Literal('light'), Type.Literal('standard'), Type.Literal('heavy'), Type.Null()]),
  routing_enabled: Type.Boolean(),
});
export type CatalogModelView = Static<typeof CatalogModelView>;

export const CatalogView = Type.Object({
  default_provider: Type.String(),
  providers: Type.Array(CatalogProviderView),
  models: Type.Array(CatalogModelView),
  speech: Type.Object({
    provider: Type.String(),
    model: Type.String(),
    voice: Type.String(),
    max_input_chars: Type.Integer(),
  }),
});
export type CatalogView = Static<typeof CatalogView>;

export const ModelQuery = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 100 }),
    wire_id: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

/** The catalog as served: each provider's availability is whether the broker holds its key. */
export function catalogView(catalog: Catalog, endpoints: readonly ProviderEndpoint[]): CatalogView {
  const keyed = new Set(endpoints.filter((e) => e.apiKey).map((e) => e.id));
  return {
    default_provider: catalog.default_provider,
    providers: catalog.providers.map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      apis: [...p.apis],
      available: keyed.has(p.id),
    })),
    models: catalog.models.map((m) => modelView(m, keyed.has(m.provider))),
    speech: { ...catalog.speech },
  };
}

export const modelView = (m: CatalogModel, available: boolean): CatalogModelView => ({
  provider: m.provider,
  wire_id: m.wire_id,
  name: m.name,
  available,
  limits: { context_window: m.context_window, max_output_tokens: m.max_output_tokens },
  prices: { ...m.prices },
  family: m.family ?? null,
  tier: m.tier ?? null,
  routing_enabled: m.routing_enabled ?? false,
});
