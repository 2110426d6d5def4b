/**
 * Routing rules as plain functions: which substitution rule applies, what a request looks like
 * to the quick check, which cheaper model of a family a grade allows, and the families as
 * GET /v1/routing/families lists them. No I/O here: the router calls these on every relayed call.
 */
import { unprocessable } from '@platform/kit';
import { type Api, type Catalog, type CatalogModel, findProvider, TIERS, type Tier } from './catalog.ts';

/** The wire protocols routing applies to (speech has a fixed model). */
export const ROUTED_APIS = ['chat', 'responses', 'messages'] as const;
export type RoutedApi = (typeof ROUTED_APIS)[number];

export interface RuleMatch {
  /** An exact wire id, or a prefix ending in `*` (`*` alone matches every model). */
  model: string;
  provider?: string;
  api?: RoutedApi;
}

export interface RoutingRule {
  id: string;
  name: string;
  match: RuleMatch;
  /** A wire id the request's provider offers; never a more expensive model. */
  target_model: string;
  enabled: boolean;
}

export interface RoutingSettings {
  max_input_chars: number;
  max_messages: number;
  classifier: { provider: string; model: string; max_input_chars: number } | null;
}

/**
 * The measure "cheaper" is judged by everywhere in routing: the input price plus the output
 * price per million tokens (what a typical call of equal input and output pays, doubled).
 */
export const priceMeasure = (m: CatalogModel) => m.prices.input + m.prices.output;

export const tierRank = (t: Tier) => TIERS.indexOf(t);

export function ruleMatches(match: RuleMatch, provider: string, wireId: string, api: Api): boolean {
  if (match.provider !== undefined && match.provider !== provider) return false;
  if (match.api !== undefined && match.api !== api) return false;
  return match.model.endsWith('*') ? wireId.startsWith(match.model.slice(0, -1)) : wireId === match.model;
}

/**
 * The first enabled rule that matches the request and whose target its provider offers at no
 * higher price, with that target. A rule whose target is unusable for this request (another
 * provider's model, a dearer one, or gone from the catalog) is passed over, not applied.
 */
export function firstApplicableRule(
  catalog: Catalog,
  rules: readonly RoutingRule[],
  requested: CatalogModel,
  api: Api,
): { rule: RoutingRule; target: CatalogModel } | null {
  for (const rule of rules) {
    if (!rule.enabled || !ruleMatches(rule.match, requested.provider, requested.wire_id, api)) continue;
    const target = catalog.models.find((m) => m.provider === requested.provider && m.wire_id === rule.target_model);
    if (target && priceMeasure(target) <= priceMeasure(requested)) return { rule, target };
  }
  return null;
}

/** What the quick check and the classifier look at in a provider request. */
export interface RequestShape {
  /** Characters of text (system and instructions included), counted up to a cap. */
  chars: number;
  messages: number;
  /** Tool definitions, tool calls or tool results. */
  tools: boolean;
  /** Images, audio, files or documents. */
  media: boolean;
}

const MEDIA_PARTS = new Set([
  'image',
  'image_url',
  'input_image',
  'input_audio',
  'input_file',
  'file',
  'document',
  'audio',
]);
const TOOL_PARTS = new Set(['tool_use', 'tool_result', 'function_call', 'function_call_output', 'tool_call']);

/** Adds one content value (a string, or a list of typed parts) to the shape. */
function addContent(shape: RequestShape, content: unknown, cap: number, texts?: string[]) {
  if (typeof content === 'string') {
    shape.chars += content.length;
    texts?.push(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const part of content) {
    if (typeof part === 'string') {
      shape.chars += part.length;
      texts?.push(part);
      continue;
    }
    if (!part || typeof part !== 'object') continue;
    const p = part as Record<string, unknown>;
    const type = typeof p.type === 'string' ? p.type : '';
    if (MEDIA_PARTS.has(type)) shape.media = true;
    else if (TOOL_PARTS.has(type)) shape.tools = true;
    else if (typeof p.text === 'string') {
      shape.chars += p.text.length;
      texts?.push(p.text);
    }
    if (shape.chars > cap && !texts) return;
  }
}

/**
 * The shape of a chat, responses or messages request. Counting stops once `cap` characters are
 * passed (the caller only needs to know the request is over it); `texts`, when given, collects
 * every text for the classifier.
 */
export function requestShape(
  api: RoutedApi,
  body: Record<string, unknown>,
  cap = Number.POSITIVE_INFINITY,
  texts?: string[],
): RequestShape {
  const shape: RequestShape = { chars: 0, messages: 0, tools: false, media: false };
  if (Array.isArray(body.tools) && body.tools.length > 0) shape.tools = true;
  if (Array.isArray(body.functions) && body.functions.length > 0) shape.tools = true;
  // Instructions and system text (responses, messages).
  addContent(shape, body.instructions, cap, texts);
  if (api === 'messages') addContent(shape, body.system, cap, texts);
  const list = api === 'responses' ? body.input : body.messages;
  if (typeof list === 'string') {
    shape.messages = 1;
    addContent(shape, list, cap, texts);
    return shape;
  }
  if (!Array.isArray(list)) return shape;
  for (const item of list) {
    shape.messages += 1;
    if (!item || typeof item !== 'object') continue;
    const m = item as Record<string, unknown>;
    if (m.role === 'tool' || m.role === 'function' || m.tool_calls || m.function_call) shape.tools = true;
    if (typeof m.type === 'string' && TOOL_PARTS.has(m.type)) shape.tools = true;
    addContent(shape, m.content, cap, texts);
    if (shape.chars > cap && !texts) break;
  }
  return shape;
}

/** The quick check: light when the request is small, short and plain text; otherwise no grade. */
export const quickCheckPasses = (shape: RequestShape, s: RoutingSettings) =>
  !shape.tools && !shape.media && shape.chars <= s.max_input_chars && shape.messages <= s.max_messages;

/** Whether the classifier may grade a request the quick check did not pass. */
export const classifierMayGrade = (shape: RequestShape, s: RoutingSettings) =>
  s.classifier !== null && !shape.tools && !shape.media && shape.chars <= s.classifier.max_input_chars;

/**
 * The model a grade allows instead of `requested`: among the routing-enabled models of its
 * family that the same provider offers, those of a tier at least the graded one (able to serve
 * the request) and strictly cheaper than the requested model; the cheapest of them. Null when
 * the requested model is not routing-enabled, has no family or tier, or nothing qualifies.
 */
export function cheaperModelFor(catalog: Catalog, requested: CatalogModel, graded: Tier): CatalogModel | null {
  if (!requested.routing_enabled || !requested.family || !requested.tier) return null;
  if (tierRank(requested.tier) <= tierRank(graded)) return null;
  let best: CatalogModel | null = null;
  for (const m of catalog.models) {
    if (m.provider !== requested.provider || m.family !== requested.family || !m.routing_enabled || !m.tier) continue;
    if (tierRank(m.tier) < tierRank(graded) || priceMeasure(m) >= priceMeasure(requested)) continue;
    if (!best || priceMeasure(m) < priceMeasure(best)) best = m;
  }
  return best;
}

/** Whether automatic grading could change the model at all (a light grade is the most it can ask). */
export const gradingCanRoute = (catalog: Catalog, requested: CatalogModel) =>
  cheaperModelFor(catalog, requested, 'light') !== null;

/** A classifier's answer: the first of light, standard or heavy it names. */
export function parseGrade(text: string): Tier | null {
  const m = /\b(light|standard|heavy)\b/i.exec(text);
  return m ? (m[1].toLowerCase() as Tier) : null;
}

export interface FamilyModel {
  provider: string;
  wire_id: string;
  name: string;
  tier: Tier | null;
  prices: CatalogModel['prices'];
  price_measure: number;
}

/** Route families: each family's routing-enabled models, cheapest first (then by wire id). */
export function routeFamilies(catalog: Catalog): { family: string; models: FamilyModel[] }[] {
  const families = new Map<string, FamilyModel[]>();
  for (const m of catalog.models) {
    if (!m.family || !m.routing_enabled) continue;
    const list = families.get(m.family) ?? [];
    list.push({
      provider: m.provider,
      wire_id: m.wire_id,
      name: m.name,
      tier: m.tier ?? null,
      prices: m.prices,
      price_measure: priceMeasure(m),
    });
    families.set(m.family, list);
  }
  return [...families.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([family, models]) => ({
      family,
      models: models.sort((a, b) => a.price_measure - b.price_measure || a.wire_id.localeCompare(b.wire_id)),
    }));
}

/**
 * Checks a rule list against the catalog before it is stored: unique ids, known providers,
 * exact match models and targets the catalog has, and a target the matched model's provider
 * offers at no higher price. Field paths name the offending rule.
 */
export function checkRules(catalog: Catalog, rules: readonly RoutingRule[]): void {
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const at = `body/data/rules/${i}`;
    if (seen.has(rule.id)) throw unprocessable('duplicate_rule_id', `Rule id ${rule.id} appears twice`, `${at}/id`);
    seen.add(rule.id);
    const { provider, model, api } = rule.match;
    if (provider !== undefined) {
      const p = findProvider(catalog, provider);
      if (!p) throw unprocessable('unknown_provider', `No provider ${provider} in the catalog`, `${at}/match/provider`);
      if (api !== undefined && !p.apis.includes(api)) {
        throw unprocessable('unknown_provider', `Provider ${provider} does not speak ${api}`, `${at}/match/api`);
      }
    }
    const inScope = (m: CatalogModel) => provider === undefined || m.provider === provider;
    const targets = catalog.models.filter((m) => m.wire_id === rule.target_model && inScope(m));
    if (targets.length === 0) {
      throw unprocessable('unknown_model', `No model ${rule.target_model} in the catalog`, `${at}/target_model`);
    }
    if (model.endsWith('*')) return;
    const matched = catalog.models.filter((m) => m.wire_id === model && inScope(m));
    if (matched.length === 0)
      throw unprocessable('unknown_model', `No model ${model} in the catalog`, `${at}/match/model`);
    const pairs = matched.flatMap((m) => targets.filter((t) => t.provider === m.provider).map((t) => [m, t] as const));
    if (pairs.length === 0) {
      throw unprocessable(
        'unknown_model',
        `${rule.target_model} is not offered by the provider of ${model}: routing never switches provider`,
        `${at}/target_model`,
      );
    }
    if (pairs.every(([m, t]) => priceMeasure(t) > priceMeasure(m))) {
      throw unprocessable(
        'target_more_expensive',
        `${rule.target_model} costs more than ${model}: routing never sends a call to a dearer model`,
        `${at}/target_model`,
      );
    }
  });
}
