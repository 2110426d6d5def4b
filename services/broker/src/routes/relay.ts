import type { TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { ChildLoggerOptions } from 'fastify/types/logger.js';
import type { Api } from '../domain/catalog.ts';
import { Relay } from '../relay/relay.ts';
import { RawBody } from '../relay/request.ts';
import {
  ChatRequest,
  ConversationHeaders,
  MessagesHeaders,
  MessagesRequest,
  ProviderReply,
  ResponsesRequest,
  SpeechReply,
  SpeechRequest,
  TranscriptionReply,
  TranscriptionRequest,
} from '../schemas/relay.ts';
import { type RouteDeps, type RouteModule, type Routes, register, route } from './deps.ts';

const tags = ['relay'];

/** Provider requests can carry long contexts and inline images. */
const RELAY_BODY_LIMIT = 32 * 1024 * 1024;

const DESCRIPTION =
  '402 over_budget before any upstream call; 422 unknown_provider, unknown_model, ambiguous_provider; ' +
  '503 provider_unavailable when the broker holds no key for the provider; 502 upstream_failed when the provider ' +
  'cannot be reached or answers an error. Not a command: no Idempotency-Key.';

/** Each app's relay (its upstream pools), made when its relay routes are registered. */
const relays = new WeakMap<RouteDeps, Relay>();

function relayOf(deps: RouteDeps): Relay {
  const relay = relays.get(deps);
  if (!relay) throw new Error('The relay routes are registered through relayRoutes, which makes their relay');
  return relay;
}

const relayRoute = (r: {
  url: string;
  api: Api;
  summary: string;
  body: TSchema;
  reply: TSchema;
  headers?: TSchema;
  description?: string;
  consumes?: string[];
}) =>
  route({
    method: 'POST',
    url: r.url,
    action: 'relay',
    tags,
    summary: r.summary,
    description: r.description ? `${r.description} ${DESCRIPTION}` : DESCRIPTION,
    // The schemas document; the relay checks the body itself (it forwards the raw bytes).
    body: r.body,
    ...(r.headers || r.consumes
      ? { schema: { ...(r.headers ? { headers: r.headers } : {}), ...(r.consumes ? { consumes: r.consumes } : {}) } }
      : {}),
    response: r.reply,
    errors: [
      'over_budget',
      'unknown_provider',
      'unknown_model',
      'ambiguous_provider',
      'upstream_failed',
      'provider_unavailable',
    ],
    // Not a command (BRK-120): no Idempotency-Key, every call goes upstream.
    command: false,
    // The relay answers itself: it streams the provider's reply bytes, not an envelope.
    handler: async ({ principal, req, reply }, deps) => relayOf(deps).handle(req, reply, r.api, principal),
  });

/** The relay routes (spec 3, Broker, Relay rules), registered by relayRoutes in a scope of raw bodies. */
export const RELAY_ROUTES: Routes = [
  relayRoute({
    url: '/v1/relay/messages',
    api: 'messages',
    summary: 'Anthropic messages API: the body is forwarded and the reply bytes come back unchanged',
    body: MessagesRequest,
    reply: ProviderReply,
    headers: MessagesHeaders,
  }),
  relayRoute({
    // The Anthropic SDK appends /v1/messages to its base URL: with baseURL <broker>/v1/relay it calls this path.
    url: '/v1/relay/v1/messages',
    api: 'messages',
    summary: 'The same as /v1/relay/messages, for the Anthropic SDK with baseURL <broker>/v1/relay',
    body: MessagesRequest,
    reply: ProviderReply,
    headers: MessagesHeaders,
  }),
  relayRoute({
    url: '/v1/relay/chat/completions',
    api: 'chat',
    summary: 'Chat completions: provider selects the upstream and is stripped; reply bytes unchanged',
    body: ChatRequest,
    reply: ProviderReply,
    headers: ConversationHeaders,
  }),
  relayRoute({
    url: '/v1/relay/responses',
    api: 'responses',
    summary: 'Responses API: provider selects the upstream and is stripped; reply bytes unchanged',
    body: ResponsesRequest,
    reply: ProviderReply,
    headers: ConversationHeaders,
  }),
  relayRoute({
    url: '/v1/relay/speech',
    api: 'speech',
    summary: "MP3 of a short passage in the catalog's fixed model and voice (audio/mpeg)",
    body: SpeechRequest,
    reply: SpeechReply,
  }),
  relayRoute({
    url: '/v1/relay/audio/transcriptions',
    api: 'transcription',
    summary:
      "OpenAI-compatible audio transcription: the multipart form is forwarded and the provider's reply comes back unchanged",
    description:
      'multipart/form-data as OpenAI takes it (file, model, prompt, response_format, language, ...; provider picks ' +
      'the upstream and is stripped). The model is sent as asked (transcription is not routed). Usage is recorded ' +
      'in seconds of audio (input_tokens of the usage row, priced per million seconds): the duration the reply ' +
      'names (usage.seconds, or verbose_json duration), else estimated from the file size at 4,000 bytes a second ' +
      '(marked estimated). No file or model: 422 validation_failed.',
    consumes: ['multipart/form-data'],
    body: TranscriptionRequest,
    reply: TranscriptionReply,
  }),
];

/** Info is below the relay's floor: a relayed call logs only its failures (the hot path writes no line). */
const QUIET_LEVELS = new Set(['trace', 'debug', 'info']);

type Log = FastifyBaseLogger;
type LogArgs = Parameters<Log['warn']>;
const quiet = () => {};

/**
 * A relayed call's logger at warn: the request's own child logger (its reqId bound) is made only
 * when a warning or an error is written. Fastify's default makes one per request, and at a level
 * other than the app's each costs pino a rebuild of its methods: per-call work for lines a call
 * that succeeds never writes.
 */
class RelayCallLog {
  readonly level = 'warn';
  #made: Log | undefined;
  constructor(
    private readonly parent: Log,
    private readonly bindings: Record<string, unknown>,
    private readonly opts: ChildLoggerOptions,
  ) {}
  private get made(): Log {
    this.#made ??= this.parent.child(this.bindings, this.opts);
    return this.#made;
  }
  isLevelEnabled(level: string): boolean {
    return level === 'warn' || level === 'error' || level === 'fatal';
  }
  trace = quiet;
  debug = quiet;
  info = quiet;
  silent = quiet;
  warn(...args: LogArgs) {
    this.made.warn(...args);
  }
  error(...args: LogArgs) {
    this.made.error(...args);
  }
  fatal(...args: LogArgs) {
    this.made.fatal(...args);
  }
  child(bindings: Record<string, unknown>, opts?: ChildLoggerOptions): Log {
    return this.made.child(bindings, opts);
  }
}

/**
 * The relay routes in their own scope: the body is kept as sent (forwarded byte for byte unless the
 * relay rewrites it), so the scope reads every content type as raw bytes and validates nothing.
 */
export const relayRoutes: RouteModule = (app, deps) => {
  const logLevel = QUIET_LEVELS.has(app.log.level) ? 'warn' : undefined;
  app.register(
    async (scope) => {
      const relay = new Relay(deps);
      relays.set(deps, relay);
      scope.addHook('onClose', () => relay.close());
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT }, (_req, body, done) =>
        done(null, new RawBody(body as Buffer)),
      );
      scope.setValidatorCompiler(() => () => true);
      if (logLevel) {
        scope.setChildLoggerFactory(
          (parent, bindings, opts) =>
            new RelayCallLog(parent, bindings, { ...opts, level: logLevel }) as unknown as Log,
        );
      }
      register(scope, deps, RELAY_ROUTES);
    },
    logLevel ? { logLevel } : {},
  );
};
