import { unprocessable } from '@platform/kit';
import { type Catalog, findModel, findProvider, priceUsage } from './catalog.ts';

/** One completed call as stored: what the usage row and the daily rollup hold. Money in micro-dollars. */
export interface UsageRecord {
  id: string;
  occurred_at: Date;
  actor_fid: string;
  provider: string;
  provider_kind: string;
  model: string;
  /** Set only when routing substituted the model. */
  requested_model: string | null;
  request_kind: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cost_micros: number;
  cache_savings_micros: number;
  routing_savings_micros: number;
  source: 'relay' | 'report';
  estimated: boolean;
}

/** How GET /v1/usage shapes its rows: one per day (default), sums over the range, or the calls themselves. */
export const USAGE_GROUPS = ['day', 'person_model', 'person', 'model', 'provider', 'call'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** A call reported with POST /v1/usage, before it is priced. */
export interface ReportedCall {
  provider: string;
  model: string;
  request_kind?: string;
  input_tokens: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  occurred_at?: string;
}

/** Reports may run a little ahead of the server's clock; further ahead is a mistake. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The usage row of a reported call, priced from the catalog like a relayed one. Input tokens
 * include cache reads (the catalog's convention), so cache reads cannot exceed them.
 */
export function reportedUsage(
  c: ReportedCall,
  catalog: Catalog,
  ids: { id: string; actor_fid: string },
  now: Date,
): UsageRecord {
  const provider = findProvider(catalog, c.provider);
  if (!provider)
    throw unprocessable('unknown_provider', `No provider ${c.provider} in the catalog`, 'body/data/provider');
  const model = findModel(catalog, c.provider, c.model);
  if (!model) throw unprocessable('unknown_model', `${c.provider} offers no model ${c.model}`, 'body/data/model');
  const tokens = {
    input_tokens: c.input_tokens,
    output_tokens: c.output_tokens ?? 0,
    cache_read_tokens: c.cache_read_tokens ?? 0,
  };
  if (tokens.cache_read_tokens > tokens.input_tokens) {
    throw unprocessable(
      'bad_tokens',
      'cache_read_tokens counts part of input_tokens, so it cannot exceed them',
      'body/data/cache_read_tokens',
    );
  }
  const occurredAt = c.occurred_at ? new Date(c.occurred_at) : now;
  if (occurredAt.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) {
    throw unprocessable('bad_occurred_at', 'occurred_at is in the future', 'body/data/occurred_at');
  }
  return {
    id: ids.id,
    occurred_at: occurredAt,
    actor_fid: ids.actor_fid,
    provider: provider.id,
    provider_kind: provider.kind,
    model: model.wire_id,
    requested_model: null,
    request_kind: c.request_kind ?? 'other',
    ...tokens,
    ...priceUsage(model.prices, tokens),
    routing_savings_micros: 0,
    source: 'report',
    estimated: false,
  };
}
