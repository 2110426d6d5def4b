/**
 * The model broker (spec 3; ARCHITECTURE "Model calls from any service go through the broker's
 * relay"): the workspace's model-written text (a digest's line, a context pack's summary) is one
 * OpenAI-compatible chat completion through POST {BROKER_URL}/v1/relay/chat/completions, with the
 * platform service token on behalf of the person served. Calls happen off the read paths
 * (commands/summaries.ts); an unset BROKER_URL means no client at all, and the reads answer with
 * counts and `degraded: true`.
 */

export interface ModelRequest {
  /** The person the text is written for (X-Platform-On-Behalf-Of): their budget pays for it. */
  onBehalfOf: string;
  system: string;
  prompt: string;
  /** The longest answer wanted, in tokens. */
  maxTokens: number;
}

export interface ModelClient {
  /** The model's text for the request; throws BrokerError when the broker refuses, fails or answers no text. */
  write(req: ModelRequest): Promise<string>;
}

export class BrokerError extends Error {}

export interface BrokerOptions {
  /** BROKER_URL: the broker's origin, e.g. http://127.0.0.1:4106. */
  baseUrl: string;
  /** The platform service token (SERVICE_TOKEN), sent as X-Platform-Service-Token. */
  serviceToken?: string;
  /** The catalogue model asked for (the broker may route it). */
  model?: string;
  /** The whole call, connection to last byte. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A small, inexpensive model of the broker's built-in catalogue: these texts are one or two sentences. */
export const DEFAULT_MODEL = 'gpt-4.1-mini';
export const DEFAULT_BROKER_TIMEOUT_MS = 20_000;

/** The broker's relay as a ModelClient. */
export class BrokerModelClient implements ModelClient {
  constructor(private readonly o: BrokerOptions) {}

  async write(req: ModelRequest): Promise<string> {
    const doFetch = this.o.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(new URL('/v1/relay/chat/completions', this.o.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.o.serviceToken ? { 'x-platform-service-token': this.o.serviceToken } : {}),
          'x-platform-on-behalf-of': req.onBehalfOf,
        },
        body: JSON.stringify({
          model: this.o.model ?? DEFAULT_MODEL,
          max_tokens: req.maxTokens,
          messages: [
            { role: 'system', content: req.system },
            { role: 'user', content: req.prompt },
          ],
        }),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_BROKER_TIMEOUT_MS),
      });
    } catch (e) {
      throw new BrokerError(`The model broker cannot be reached: ${(e as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new BrokerError(`The model broker answered ${res.status}: ${text.slice(0, 200)}`);
    let content: unknown;
    try {
      content = JSON.parse(text)?.choices?.[0]?.message?.content;
    } catch {
      throw new BrokerError('The model broker answered something other than JSON');
    }
    if (typeof content !== 'string' || content.trim() === '') {
      throw new BrokerError('The model broker answered no text');
    }
    return content.trim();
  }
}
