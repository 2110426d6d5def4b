import { Type } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
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
} from '../schemas/relay.ts';
import { type RouteModule, reader } from './deps.ts';

const tags = ['relay'];

/** Provider requests can carry long contexts and inline images. */
const RELAY_BODY_LIMIT = 32 * 1024 * 1024;

const ERRORS =
  '402 over_budget before any upstream call; 422 unknown_provider, unknown_model, ambiguous_provider; ' +
  '503 provider_unavailable when the broker holds no key for the provider; 502 upstream_failed when the provider ' +
  'cannot be reached or answers an error. Not a command: no Idempotency-Key.';

const ROUTES: { url: string; api: Api; summary: string; body: object; reply: object; headers?: object }[] = [
  {
    url: '/v1/relay/messages',
    api: 'messages',
    summary: 'Anthropic messages API: the body is forwarded and the reply bytes come back unchanged',
    body: MessagesRequest,
    reply: ProviderReply,
    headers: MessagesHeaders,
  },
  {
    // The Anthropic SDK appends /v1/messages to its base URL: with baseURL <broker>/v1/relay it calls this path.
    url: '/v1/relay/v1/messages',
    api: 'messages',
    summary: 'The same as /v1/relay/messages, for the Anthropic SDK with baseURL <broker>/v1/relay',
    body: MessagesRequest,
    reply: ProviderReply,
    headers: MessagesHeaders,
  },
  {
    url: '/v1/relay/chat/completions',
    api: 'chat',
    summary: 'Chat completions: provider selects the upstream and is stripped; reply bytes unchanged',
    body: ChatRequest,
    reply: ProviderReply,
    headers: ConversationHeaders,
  },
  {
    url: '/v1/relay/responses',
    api: 'responses',
    summary: 'Responses API: provider selects the upstream and is stripped; reply bytes unchanged',
    body: ResponsesRequest,
    reply: ProviderReply,
    headers: ConversationHeaders,
  },
  {
    url: '/v1/relay/speech',
    api: 'speech',
    summary: "MP3 of a short passage in the catalog's fixed model and voice (audio/mpeg)",
    body: SpeechRequest,
    reply: SpeechReply,
  },
];

/** Info is below the relay's floor: a relayed call logs only its failures (the hot path writes no line). */
const QUIET_LEVELS = new Set(['trace', 'debug', 'info']);

/** The relay routes (spec 3, Broker, Relay rules). */
export const relayRoutes: RouteModule = (app, deps) => {
  app.register(async (scope) => {
    const relay = new Relay(deps);
    scope.addHook('onClose', () => relay.close());
    // The body is kept as sent: forwarded byte for byte unless the relay rewrites it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT }, (_req, body, done) =>
      done(null, new RawBody(body as Buffer)),
    );
    const logLevel = QUIET_LEVELS.has(scope.log.level) ? 'warn' : undefined;
    for (const r of ROUTES) {
      const schema: FastifySchema = {
        tags,
        summary: r.summary,
        description: ERRORS,
        ...(r.headers ? { headers: r.headers } : {}),
        body: r.body,
        response: { 200: r.reply, 402: Type.Ref('ErrorEnvelope'), 502: Type.Ref('ErrorEnvelope') },
      };
      scope.post(
        r.url,
        {
          preValidation: reader('relay'),
          bodyLimit: RELAY_BODY_LIMIT,
          ...(logLevel ? { logLevel } : {}),
          schema,
          // The schemas document; the relay checks the body itself (it forwards the raw bytes).
          validatorCompiler: () => () => true,
        },
        (req, reply) => relay.handle(req, reply, r.api),
      );
    }
  });
};
