/**
 * The relay's request and reply shapes, for the OpenAPI document. The relay forwards the
 * caller's bytes unchanged, so it checks bodies itself (relay/request.ts) instead of through
 * these schemas: they describe, they do not validate.
 */
import { Type } from '@sinclair/typebox';

const ProviderRequest = (what: string) =>
  Type.Object(
    {
      model: Type.String({ description: 'A model the catalog lists for this API' }),
      provider: Type.Optional(
        Type.String({
          description:
            'The catalog provider to relay to; stripped before forwarding. Omitted: the default provider when it ' +
            'offers the model, else the one provider offering it (several: 422 ambiguous_provider)',
        }),
      ),
      stream: Type.Optional(Type.Boolean({ description: 'Stream the reply as server-sent events' })),
    },
    { additionalProperties: true, description: `${what}, forwarded as sent apart from provider and a routed model` },
  );

export const MessagesRequest = ProviderRequest('An Anthropic messages request');
export const ChatRequest = ProviderRequest('An OpenAI chat completions request');
export const ResponsesRequest = ProviderRequest('An OpenAI responses request');

export const SpeechRequest = Type.Object(
  {
    input: Type.String({
      minLength: 1,
      description: 'The passage to read; at most the catalog speech max_input_chars',
    }),
  },
  {
    additionalProperties: true,
    description: 'Any model, voice or format named is ignored: the catalog fixes them',
  },
);

/** API-credential calls only: where the call is saved and whether it feeds knowledge. */
export const ConversationHeaders = Type.Object({
  'x-platform-conversation-id': Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'API credentials only: the workspace conversation to save this call to',
    }),
  ),
  'x-platform-knowledge': Type.Optional(
    Type.String({ description: 'API credentials only: off keeps the saved conversation out of knowledge' }),
  ),
});

export const MessagesHeaders = Type.Composite([
  ConversationHeaders,
  Type.Object({
    'anthropic-version': Type.Optional(Type.String({ description: 'The configured default when absent' })),
    'anthropic-beta': Type.Optional(Type.String({ description: 'Forwarded' })),
  }),
]);

/** The provider's reply, byte for byte: JSON, or server-sent events when streamed (an OpenAPI response by content type). */
export const ProviderReply = Type.Unsafe<unknown>({
  description: "The provider's reply bytes, unchanged and not enveloped",
  content: {
    'application/json': { schema: Type.Object({}, { additionalProperties: true }) },
    'text/event-stream': { schema: Type.String({ description: "The provider's server-sent events" }) },
  },
});

export const SpeechReply = Type.Unsafe<unknown>({
  description: 'The MP3 audio',
  content: { 'audio/mpeg': { schema: Type.String({ format: 'binary' }) } },
});

export const TranscriptionRequest = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'The audio file' }),
    model: Type.String({ description: 'A transcription model of the catalog (e.g. whisper-1)' }),
    provider: Type.Optional(Type.String({ description: 'The catalog provider; stripped before forwarding' })),
    prompt: Type.Optional(Type.String({ description: 'A hint: names and words to expect' })),
    response_format: Type.Optional(
      Type.String({ description: 'json, text, srt, verbose_json, vtt or diarized_json, as the model takes' }),
    ),
  },
  { additionalProperties: true, description: 'An OpenAI transcription form (multipart/form-data), forwarded as sent' },
);

/** The provider's transcription reply, byte for byte: JSON for the json formats, else text. */
export const TranscriptionReply = Type.Unsafe<unknown>({
  description: "The provider's reply bytes, unchanged and not enveloped",
  content: {
    'application/json': { schema: Type.Object({}, { additionalProperties: true }) },
    'text/plain': { schema: Type.String({ description: 'text, srt or vtt' }) },
  },
});
