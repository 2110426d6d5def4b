import { AppError } from '@platform/kit';

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

/** The model broker as the agents service uses it: one chat turn through its relay. */
export interface BrokerClient {
  chat(turn: ChatTurn): Promise<ChatAnswer>;
}

export interface HttpBrokerOptions {
  /** AGENTS_BROKER_URL. */
  baseUrl: string;
  /** The shared service token: the broker takes the agent's mailbox as the caller on its word. */
  serviceToken: string | undefined;
  /** AGENTS_UPSTREAM_TIMEOUT_MS. */
  timeoutMs: number;
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
  const url = `${o.baseUrl.replace(/\/+$/, '')}/v1/relay/chat/completions`;
  return {
    async chat(turn) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(o.serviceToken ? { 'x-platform-service-token': o.serviceToken } : {}),
            'x-platform-on-behalf-of': turn.onBehalfOf,
          },
          body: JSON.stringify({ model: turn.model, messages: turn.messages }),
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (e) {
        throw brokerUnavailable((e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message);
      }
      const text = await res.text().catch(() => '');
      if (!res.ok) throw brokerUnavailable(`status ${res.status}`);
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
