import { unprocessable } from '@platform/kit';
import {
  type Api,
  type Catalog,
  type CatalogModel,
  type CatalogProvider,
  findModel,
  findProvider,
  providersOffering,
  servesApi,
} from '../domain/catalog.ts';

export interface Selection {
  provider: CatalogProvider;
  model: CatalogModel;
}

/**
 * The upstream of a relay call (spec 3, Relay rules). A named provider must exist and offer the
 * model over this api. Omitted: the default provider when it offers the model, else the one
 * provider that does; several is ambiguous. Every refusal is 422, before any upstream call.
 */
export function selectProvider(catalog: Catalog, api: Api, named: string | undefined, wireId: string): Selection {
  if (named !== undefined) {
    const provider = findProvider(catalog, named);
    if (!provider) throw unprocessable('unknown_provider', `Unknown provider ${named}`, 'body/provider');
    const found = provider.apis.includes(api) ? findModel(catalog, provider.id, wireId) : undefined;
    const model = found && servesApi(found, api) ? found : undefined;
    if (!model) throw unknownModel(`Provider ${named} does not offer ${wireId} on this API`);
    return { provider, model };
  }
  const offering = providersOffering(catalog, wireId, api);
  const chosen =
    offering.find((p) => p.id === catalog.default_provider) ?? (offering.length === 1 ? offering[0] : undefined);
  if (chosen) return { provider: chosen, model: findModel(catalog, chosen.id, wireId) as CatalogModel };
  if (offering.length === 0) throw unknownModel(`No provider offers ${wireId} on this API`);
  throw unprocessable(
    'ambiguous_provider',
    `Several providers offer ${wireId} (${offering.map((p) => p.id).join(', ')}): name one in provider`,
    'body/provider',
  );
}

const unknownModel = (message: string) => unprocessable('unknown_model', message, 'body/model');
