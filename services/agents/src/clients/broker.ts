import { AppError } from '@platform/kit';
import { Pool } from 'undici';

/** One message of an OpenAI chat-completions request. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatTurn {
  /** The agent's mailbox: the broker bills the call to it (X-Platform-On-Behalf-Of). */
  onBehalfOf: string;
  /** auto or a broker wire_id. */
  model: string;
  messages: ChatMessage[];
}

export interface ChatAnswer {
  content: string;
  /** The model that answered, as the broker reports it. */
  model: string;
}

/** A passage to read aloud, billed to the person it is read for. */
export interface SpeechRequest {
  /** The person's email (X-Platform-On-Behalf-Of). */
  onBehalfOf: string;
  text: string;
}

/** The broker's audio, byte for byte, with the content type it answered. */
export interface SpeechAnswer {
  bytes: Buffer;
  contentType: string;
}

/** The model broker as the agents service uses it: one chat turn, or one passage spoken, through its relay. */
export interface BrokerClient {
  chat(turn: ChatTurn): Promise<ChatAnswer>;
  /** POST /v1/relay/speech: MP3 of a short passage (the broker fixes the model and voice). */
  speech(req: SpeechRequest): Promise<SpeechAnswer>;
}

export interface HttpBrokerOptions {
  /** AGENTS_BROKER_URL. */
  baseUrl: string;
  /** The shared service token: the broker takes the agent's mailbox as the caller on its word. */
  serviceToken: string | undefined;
  /** AGENTS_UPSTREAM_TIMEOUT_MS. */
  timeoutMs: number;
  /** Replaces the HTTP calls (tests); by default chat goes over one keep-alive undici pool and speech over fetch. */
  fetch?: typeof fetch;
}

export const brokerUnavailable = (why: string) =>
  new AppError(502, 'broker_unavailable', `The model broker did not answer the call: ${why}`);

export const brokerNotConfigured = () =>
  new AppError(503, 'broker_not_configured', 'No model broker is configured (AGENTS_BROKER_URL)');

interface ChatCompletion {
  model?: string;
  choices?: { message?: { content?: string | null } }[];
}

/**
 * The broker's OpenAI-compatible relay (POST /v1/relay/chat/completions) with the service token
 * and X-Platform-On-Behalf-Of naming the agent's mailbox. No answer, a timeout, a refusal or a
 * reply that is not a chat completion is 502 broker_unavailable: the caller's request did nothing.
 */
export function httpBroker(o: HttpBrokerOptions): BrokerClient {
  const doFetch = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  const url = `${base}/v1/relay/chat/completions`;
  const pool = o.fetch ? undefined : new Pool(new URL(base).origin, { connections: 32, keepAliveTimeout: 30_000 });
  const chatPath = `${new URL(base).pathname.replace(/\/+$/, '')}/v1/relay/chat/completions`;
  return {
    async speech(req) {
      let res: Response;
      try {
        res = await doFetch(`${base}/v1/relay/speech`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(o.serviceToken ? { 'x-platform-service-token': o.serviceToken } : {}),
            'x-platform-on-behalf-of': req.onBehalfOf,
          },
          body: JSON.stringify({ input: req.text }),
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (e) {
        throw brokerUnavailable((e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message);
      }
      let bytes: Buffer;
      try {
        bytes = Buffer.from(await res.arrayBuffer());
      } catch (e) {
        throw brokerUnavailable((e as Error).message);
      }
      if (!res.ok) throw brokerUnavailable(`status ${res.status}`);
      const contentType = res.headers.get('content-type') ?? '';
      if (!contentType.startsWith('audio/')) throw brokerUnavailable('the reply is not audio');
      return { bytes, contentType };
    },

    async chat(turn) {
      const headers = {
        'content-type': 'application/json',
        ...(o.serviceToken ? { 'x-platform-service-token': o.serviceToken } : {}),
        'x-platform-on-behalf-of': turn.onBehalfOf,
      };
      const request = JSON.stringify({ model: turn.model, messages: turn.messages });
      let status: number;
      let text: string;
      if (pool) {
        // The morning's briefs make hundreds of calls: undici's request writes the body with its
        // headers, where fetch streams it through web streams (most of a call's CPU here).
        try {
          const res = await pool.request({
            method: 'POST',
            path: chatPath,
            headers,
            body: request,
            headersTimeout: o.timeoutMs,
            bodyTimeout: o.timeoutMs,
          });
          status = res.statusCode;
          text = await res.body.text().catch(() => '');
        } catch (e) {
          throw brokerUnavailable(/Timeout/.test((e as Error).name) ? 'timed out' : (e as Error).message);
        }
      } else {
        let res: Response;
        try {
          res = await doFetch(url, {
            method: 'POST',
            headers,
            body: request,
            signal: AbortSignal.timeout(o.timeoutMs),
          });
        } catch (e) {
          throw brokerUnavailable((e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message);
        }
        status = res.status;
        text = await res.text().catch(() => '');
      }
      if (status < 200 || status >= 300) throw brokerUnavailable(`status ${status}`);
      let body: ChatCompletion;
      try {
        body = JSON.parse(text) as ChatCompletion;
      } catch {
        throw brokerUnavailable('the reply is not JSON');
      }
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw brokerUnavailable('the reply has no message');
      return { content, model: body.model ?? turn.model };
    },
  };
}
