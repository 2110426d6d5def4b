import { request } from 'undici';
import type { ProviderEndpoint } from '../config.ts';
import {
  API_PATHS,
  type Catalog,
  type CatalogModel,
  findModel,
  findProvider,
  priceUsage,
  TIERS,
  type Tier,
} from '../domain/catalog.ts';
import {
  cheaperModelFor,
  classifierMayGrade,
  firstApplicableRule,
  parseGrade,
  quickCheckPasses,
  type RoutedApi,
  type RoutingRule,
  type RoutingSettings,
  requestShape,
} from '../domain/routing.ts';
import type { Db } from '../store/db.ts';
import { readOptOuts, readRules, readSettings } from '../store/routing.ts';
import type { RouteDecision, RouteRequest, Router } from './ports.ts';

/** What the router decides from: read from the database, kept in memory between calls. */
interface RoutingState {
  rules: RoutingRule[];
  settings: RoutingSettings;
  /** Lowercased emails with routing off. */
  optOuts: Set<string>;
}

export interface RoutingEngineOptions {
  /** The providers' addresses and keys, for the classifier model's calls (none: no classifier). */
  endpoints?: ProviderEndpoint[];
  /** How long a replica trusts its copy of rules, settings and opt-outs (other replicas' writes). */
  reloadMs?: number;
  /** How long the classifier may take before the request is kept as asked. */
  classifierTimeoutMs?: number;
}

const CLASSIFIER_PROMPT =
  'Grade how capable a language model must be to answer the following request well. ' +
  'Answer with exactly one word: light (simple lookups, short rewrites, small talk), ' +
  'standard (ordinary writing, summaries, routine code) or heavy (hard reasoning, long or subtle work).';

const modelKey = (provider: string, wireId: string) => `${provider}\u0000${wireId}`;

/**
 * Decides, on the relay's hot path, which model a call is sent to. Rules, settings and opt-outs
 * live in memory: a write on this replica (invalidate) makes the next call reload them, and a
 * copy older than reloadMs is refreshed in the background while calls go on with it. No call
 * reads the database otherwise.
 */
export class RoutingEngine implements Router {
  private state?: RoutingState;
  private generation = 0;
  private loadedGeneration = -1;
  private loadedAt = 0;
  private loading?: { generation: number; promise: Promise<RoutingState> };
  private readonly reloadMs: number;
  private readonly classifierTimeoutMs: number;
  /** The cheaper model each grade allows, per catalog model (the catalog does not change). */
  private readonly cheaper = new Map<string, Record<Tier, CatalogModel | null>>();

  constructor(
    readonly db: Db,
    readonly catalog: Catalog,
    private readonly opts: RoutingEngineOptions = {},
  ) {
    this.reloadMs = opts.reloadMs ?? 5_000;
    this.classifierTimeoutMs = opts.classifierTimeoutMs ?? 5_000;
    for (const m of catalog.models) {
      const byTier = {} as Record<Tier, CatalogModel | null>;
      for (const t of TIERS) byTier[t] = cheaperModelFor(catalog, m, t);
      this.cheaper.set(modelKey(m.provider, m.wire_id), byTier);
    }
  }

  /** This replica changed rules or opt-outs: the next call reads them afresh. */
  invalidate(): void {
    this.generation += 1;
  }

  /** Resolves once a reload under way (if any) has finished. */
  async loaded(): Promise<void> {
    await this.loading?.promise.catch(() => undefined);
  }

  async decide(req: RouteRequest): Promise<RouteDecision> {
    const requested = req.model;
    const kept = (classifier: string | null = null, cost = 0): RouteDecision => ({
      model: requested,
      substituted: false,
      classifier,
      family: requested.family ?? null,
      tier: requested.tier ?? null,
      outcome: 'kept',
      rule_id: null,
      grading_cost_micros: cost,
    });
    const to = (
      model: CatalogModel,
      outcome: 'rule' | 'routed',
      classifier: string | null,
      rule: string | null,
      cost = 0,
    ): RouteDecision => ({
      model,
      substituted: model.wire_id !== requested.wire_id,
      classifier,
      family: model.family ?? null,
      tier: model.tier ?? null,
      outcome,
      rule_id: rule,
      grading_cost_micros: cost,
    });
    if (req.api === 'speech' || req.api === 'transcription') return kept();
    const api: RoutedApi = req.api;
    const current = this.current(req.now);
    const state = current instanceof Promise ? await current : current;
    const email = req.actor.email?.toLowerCase();
    if (email !== undefined && state.optOuts.has(email)) return { ...kept(), outcome: 'off' };

    const hit = firstApplicableRule(this.catalog, state.rules, requested, api);
    if (hit) return to(hit.target, 'rule', null, hit.rule.id);

    const cheaper = this.cheaper.get(modelKey(requested.provider, requested.wire_id));
    if (!cheaper?.light) return kept();
    const s = state.settings;
    const shape = requestShape(api, req.body, Math.max(s.max_input_chars, s.classifier?.max_input_chars ?? 0));
    if (quickCheckPasses(shape, s)) return to(cheaper.light, 'routed', 'quick_check', null);
    if (!s.classifier || !classifierMayGrade(shape, s)) return kept('quick_check');

    const { grade, cost } = await this.classify(api, req.body, s.classifier);
    const model = grade ? cheaper[grade] : null;
    return model ? to(model, 'routed', s.classifier.model, null, cost) : kept(s.classifier.model, cost);
  }

  /** The copy in force, or its first load (or reload after a write on this replica). */
  private current(now: Date): RoutingState | Promise<RoutingState> {
    if (!this.state || this.loadedGeneration !== this.generation) return this.load(now);
    if (now.getTime() - this.loadedAt >= this.reloadMs && !this.loading) {
      // Another replica's writes: refresh behind the calls; a failure keeps the copy and waits
      // another period before trying again.
      this.load(now).catch(() => {
        this.loadedAt = now.getTime();
      });
    }
    return this.state;
  }

  private load(now: Date): Promise<RoutingState> {
    const generation = this.generation;
    if (this.loading?.generation === generation) return this.loading.promise;
    const promise = (async () => {
      const [rules, settings, optOuts] = await Promise.all([
        readRules(this.db),
        readSettings(this.db),
        readOptOuts(this.db),
      ]);
      const state: RoutingState = { rules, settings, optOuts: new Set(optOuts.map((o) => o.email.toLowerCase())) };
      if (generation >= this.loadedGeneration) {
        this.state = state;
        this.loadedGeneration = generation;
        this.loadedAt = now.getTime();
      }
      return state;
    })();
    const entry = { generation, promise };
    this.loading = entry;
    promise
      .finally(() => {
        if (this.loading === entry) this.loading = undefined;
      })
      .catch(() => undefined);
    return promise;
  }

  /**
   * One short chat completion to the classifier model grading the request's text. Any failure
   * (no key, an error status, a timeout, an answer naming no grade) grades nothing: the caller
   * keeps the model asked for. The cost is counted whenever the classifier answered.
   */
  private async classify(
    api: RoutedApi,
    body: Record<string, unknown>,
    c: NonNullable<RoutingSettings['classifier']>,
  ): Promise<{ grade: Tier | null; cost: number }> {
    const provider = findProvider(this.catalog, c.provider);
    const model = findModel(this.catalog, c.provider, c.model);
    const endpoint = this.opts.endpoints?.find((e) => e.id === c.provider);
    if (!provider?.apis.includes('chat') || !model || !endpoint?.apiKey) return { grade: null, cost: 0 };
    const texts: string[] = [];
    requestShape(api, body, Number.POSITIVE_INFINITY, texts);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${endpoint.apiKey}`,
    };
    if (provider.kind === 'anthropic') headers['x-api-key'] = endpoint.apiKey;
    try {
      const res = await request(`${endpoint.baseUrl}${API_PATHS.chat}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: c.model,
          max_tokens: 5,
          temperature: 0,
          messages: [
            { role: 'system', content: CLASSIFIER_PROMPT },
            { role: 'user', content: texts.join('\n\n').slice(0, c.max_input_chars) },
          ],
        }),
        signal: AbortSignal.timeout(this.classifierTimeoutMs),
      });
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump();
        return { grade: null, cost: 0 };
      }
      const reply = (await res.body.json()) as {
        choices?: { message?: { content?: unknown } }[];
        usage?: {
          prompt_tokens?: number;
          completion_tokens?: number;
          prompt_tokens_details?: { cached_tokens?: number };
        };
      };
      const u = reply.usage ?? {};
      const cost = priceUsage(model.prices, {
        input_tokens: u.prompt_tokens ?? 0,
        output_tokens: u.completion_tokens ?? 0,
        cache_read_tokens: u.prompt_tokens_details?.cached_tokens ?? 0,
      }).cost_micros;
      const content = reply.choices?.[0]?.message?.content;
      return { grade: typeof content === 'string' ? parseGrade(content) : null, cost };
    } catch {
      return { grade: null, cost: 0 };
    }
  }
}
