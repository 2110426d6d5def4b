/**
 * The catalog of providers, models, limits and prices. The built-in one below is replaced as a
 * whole by BROKER_CATALOG_FILE (the same shape as JSON). Keys never live in the catalog: a
 * provider names the environment variable that holds its key and is available only when set.
 */

/** The wire protocols a provider speaks; each relay route needs one. */
export type Api = 'chat' | 'responses' | 'messages' | 'speech' | 'transcription';
export const API_PATHS: Record<Api, string> = {
  chat: '/chat/completions',
  responses: '/responses',
  messages: '/messages',
  speech: '/audio/speech',
  transcription: '/audio/transcriptions',
};

/** openai: Bearer key, OpenAI wire formats; anthropic: x-api-key and the messages format. */
export type ProviderKind = 'openai' | 'anthropic';

export interface CatalogProvider {
  id: string;
  name: string;
  kind: ProviderKind;
  apis: Api[];
  /** Base URL ending in /v1; the route's path is appended. */
  base_url: string;
  /** The environment variable that holds the provider's key. */
  key_env: string;
  /** The environment variable that overrides base_url. */
  base_url_env?: string;
}

/**
 * Prices in micro-dollars per million tokens (per million characters for speech, per million
 * seconds of audio for transcription: `input` only).
 */
export interface Prices {
  input: number;
  output: number;
  cache_read: number;
}

export interface CatalogModel {
  provider: string;
  /** The model id the provider's API takes. */
  wire_id: string;
  name: string;
  context_window: number;
  max_output_tokens: number;
  prices: Prices;
  /** Routing: models of one family are interchangeable; tiers rank them (light < standard < heavy). */
  family?: string;
  tier?: Tier;
  /** Whether routing may send requests to this model. */
  routing_enabled?: boolean;
  /**
   * transcription: a transcription model, offered on POST /v1/relay/audio/transcriptions only.
   * Absent: the model serves its provider's text APIs (chat, responses, messages).
   */
  api?: 'transcription';
}

/** Whether `m` is offered over `api`: transcription models there only, the others never there. */
export const servesApi = (m: CatalogModel, api: Api): boolean =>
  m.api === 'transcription' ? api === 'transcription' : api !== 'transcription';

export const TIERS = ['light', 'standard', 'heavy'] as const;
export type Tier = (typeof TIERS)[number];

export interface Catalog {
  /** The provider an omitted `provider` means when it offers the model. */
  default_provider: string;
  providers: CatalogProvider[];
  models: CatalogModel[];
  /** The fixed model and voice of POST /v1/relay/speech. */
  speech: { provider: string; model: string; voice: string; max_input_chars: number };
}

const M = 1_000_000;
const price = (input: number, output: number, cacheRead: number): Prices => ({
  input: Math.round(input * M),
  output: Math.round(output * M),
  cache_read: Math.round(cacheRead * M),
});

/** List prices in dollars per million tokens, as published by the providers in 2025. */
export const BUILT_IN_CATALOG: Catalog = {
  default_provider: 'openai',
  providers: [
    {
      id: 'openai',
      name: 'OpenAI',
      kind: 'openai',
      apis: ['chat', 'responses', 'transcription'],
      base_url: 'https://api.openai.com/v1',
      base_url_env: 'OPENAI_BASE_URL',
      key_env: 'OPENAI_API_KEY',
    },
    {
      id: 'anthropic',
      name: 'Anthropic',
      kind: 'anthropic',
      apis: ['messages', 'chat'],
      base_url: 'https://api.anthropic.com/v1',
      base_url_env: 'ANTHROPIC_BASE_URL',
      key_env: 'ANTHROPIC_API_KEY',
    },
    {
      id: 'speech',
      name: 'Speech (OpenAI-compatible)',
      kind: 'openai',
      apis: ['speech'],
      base_url: 'https://api.openai.com/v1',
      base_url_env: 'SPEECH_BASE_URL',
      key_env: 'SPEECH_API_KEY',
    },
  ],
  models: [
    {
      provider: 'openai',
      wire_id: 'gpt-4.1',
      name: 'GPT-4.1',
      context_window: 1_047_576,
      max_output_tokens: 32_768,
      prices: price(2, 8, 0.5),
      family: 'gpt-4.1',
      tier: 'heavy',
      routing_enabled: true,
    },
    {
      provider: 'openai',
      wire_id: 'gpt-4.1-mini',
      name: 'GPT-4.1 mini',
      context_window: 1_047_576,
      max_output_tokens: 32_768,
      prices: price(0.4, 1.6, 0.1),
      family: 'gpt-4.1',
      tier: 'standard',
      routing_enabled: true,
    },
    {
      provider: 'openai',
      wire_id: 'gpt-4.1-nano',
      name: 'GPT-4.1 nano',
      context_window: 1_047_576,
      max_output_tokens: 32_768,
      prices: price(0.1, 0.4, 0.025),
      family: 'gpt-4.1',
      tier: 'light',
      routing_enabled: true,
    },
    {
      provider: 'openai',
      wire_id: 'gpt-4o',
      name: 'GPT-4o',
      context_window: 128_000,
      max_output_tokens: 16_384,
      prices: price(2.5, 10, 1.25),
      family: 'gpt-4o',
      tier: 'heavy',
      routing_enabled: true,
    },
    {
      provider: 'openai',
      wire_id: 'gpt-4o-mini',
      name: 'GPT-4o mini',
      context_window: 128_000,
      max_output_tokens: 16_384,
      prices: price(0.15, 0.6, 0.075),
      family: 'gpt-4o',
      tier: 'light',
      routing_enabled: true,
    },
    {
      provider: 'anthropic',
      wire_id: 'claude-opus-4-1',
      name: 'Claude Opus 4.1',
      context_window: 200_000,
      max_output_tokens: 32_000,
      prices: price(15, 75, 1.5),
      family: 'claude',
      tier: 'heavy',
      routing_enabled: true,
    },
    {
      provider: 'anthropic',
      wire_id: 'claude-sonnet-4-5',
      name: 'Claude Sonnet 4.5',
      context_window: 200_000,
      max_output_tokens: 64_000,
      prices: price(3, 15, 0.3),
      family: 'claude',
      tier: 'standard',
      routing_enabled: true,
    },
    {
      provider: 'anthropic',
      wire_id: 'claude-haiku-4-5',
      name: 'Claude Haiku 4.5',
      context_window: 200_000,
      max_output_tokens: 64_000,
      prices: price(1, 5, 0.1),
      family: 'claude',
      tier: 'light',
      routing_enabled: true,
    },
    {
      provider: 'speech',
      wire_id: 'tts-1',
      name: 'TTS 1',
      context_window: 4_096,
      max_output_tokens: 0,
      prices: price(15, 0, 0),
    },
    // Transcription (POST /v1/relay/audio/transcriptions): priced per second of audio, as listed
    // per minute (whisper-1 and gpt-4o-transcribe USD 0.006, the mini 0.003).
    ...(
      [
        ['whisper-1', 'Whisper', 100],
        ['gpt-4o-transcribe', 'GPT-4o Transcribe', 100],
        ['gpt-4o-mini-transcribe', 'GPT-4o mini Transcribe', 50],
        ['gpt-4o-transcribe-diarize', 'GPT-4o Transcribe with speakers', 100],
      ] as const
    ).map(
      ([wire_id, name, perMillionSeconds]): CatalogModel => ({
        provider: 'openai',
        wire_id,
        name,
        context_window: 0,
        max_output_tokens: 0,
        prices: price(perMillionSeconds, 0, 0),
        api: 'transcription',
      }),
    ),
  ],
  speech: { provider: 'speech', model: 'tts-1', voice: 'alloy', max_input_chars: 4_096 },
};

export const findProvider = (c: Catalog, id: string) => c.providers.find((p) => p.id === id);

export const findModel = (c: Catalog, provider: string, wireId: string) =>
  c.models.find((m) => m.provider === provider && m.wire_id === wireId);

/** The providers that offer `wireId` over `api`. */
export const providersOffering = (c: Catalog, wireId: string, api: Api): CatalogProvider[] =>
  c.providers.filter(
    (p) =>
      p.apis.includes(api) && c.models.some((m) => m.provider === p.id && m.wire_id === wireId && servesApi(m, api)),
  );

export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
}

/**
 * What a call cost, in micro-dollars: input tokens that were not cache reads at the input price,
 * cache reads at the cache price, output at the output price. Cache savings is what the cache
 * reads would have cost at the input price, less what they cost.
 */
export function priceUsage(p: Prices, t: TokenCounts) {
  const uncached = Math.max(0, t.input_tokens - t.cache_read_tokens);
  const cost = (uncached * p.input + t.cache_read_tokens * p.cache_read + t.output_tokens * p.output) / M;
  const cacheSavings = (t.cache_read_tokens * (p.input - p.cache_read)) / M;
  return { cost_micros: Math.round(cost), cache_savings_micros: Math.max(0, Math.round(cacheSavings)) };
}
