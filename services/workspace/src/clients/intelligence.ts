import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The intelligence service (spec 2 names it; its wire format is ours: docs/decisions.md,
 * "Conversations", "The intelligence service"). One method per endpoint, each typed. Every call
 * goes with the platform service token on behalf of the person served, within a bounded time;
 * an unset address, a refusal, a failure, a malformed answer or a slow one is an answer too:
 * `{ok: false, reason}`, which callers turn into `degraded: true`, never into a 5xx.
 */

export type Unanswered = 'unconfigured' | 'unreachable' | 'timeout' | 'refused' | 'malformed';
export type IntelligenceAnswer<T> = { ok: true; data: T } | { ok: false; reason: Unanswered; detail?: string };

/** POST /v1/conversations/project-suggestions: where an unfiled conversation might belong. */
export const SuggestProjectsRequest = Type.Object({
  conversation_id: Type.String(),
  title: Type.String(),
  /** The latest utterances, oldest first (redacted ones left out). */
  utterances: Type.Array(Type.Object({ seq: Type.Integer(), author: Type.String(), text: Type.String() })),
  /** Where the person may file it: the projects to choose among. */
  candidates: Type.Array(Type.Object({ project_id: Type.String(), name: Type.String(), description: Type.String() })),
  limit: Type.Integer({ minimum: 1 }),
});
export type SuggestProjectsRequest = Static<typeof SuggestProjectsRequest>;

export const SuggestProjectsResult = Type.Object({
  suggestions: Type.Array(
    Type.Object({
      project_id: Type.String(),
      score: Type.Number({ minimum: 0, maximum: 1 }),
      reason: Type.Optional(Type.String()),
    }),
  ),
});
export type SuggestProjectsResult = Static<typeof SuggestProjectsResult>;

export interface Intelligence {
  suggestProjects(req: SuggestProjectsRequest, onBehalfOf: string): Promise<IntelligenceAnswer<SuggestProjectsResult>>;
}

export interface IntelligenceOptions {
  /** INTELLIGENCE_URL; unset: every call answers {ok: false, reason: 'unconfigured'}. */
  baseUrl?: string;
  /** The platform service token (SERVICE_TOKEN), sent as X-Platform-Service-Token. */
  serviceToken?: string;
  /** INTELLIGENCE_TIMEOUT_MS: the whole call, connection to last byte. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_INTELLIGENCE_TIMEOUT_MS = 2_000;

/** The HTTP client of the intelligence service. */
export class HttpIntelligence implements Intelligence {
  constructor(private readonly o: IntelligenceOptions) {}

  suggestProjects(req: SuggestProjectsRequest, onBehalfOf: string) {
    return this.post('/v1/conversations/project-suggestions', req, onBehalfOf, SuggestProjectsResult);
  }

  /** One call: JSON in, the platform envelope's payload.data (or a bare body) out, checked against `result`. */
  private async post<S extends TSchema>(
    path: string,
    body: unknown,
    onBehalfOf: string,
    result: S,
  ): Promise<IntelligenceAnswer<Static<S>>> {
    if (!this.o.baseUrl) return { ok: false, reason: 'unconfigured' };
    const f = this.o.fetch ?? fetch;
    const signal = AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_INTELLIGENCE_TIMEOUT_MS);
    let res: Response;
    let text: string;
    try {
      res = await f(new URL(path, this.o.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.o.serviceToken ? { 'x-platform-service-token': this.o.serviceToken } : {}),
          'x-platform-on-behalf-of': onBehalfOf,
        },
        body: JSON.stringify(body),
        signal,
      });
      text = await res.text();
    } catch (e) {
      const timedOut = signal.aborted;
      return { ok: false, reason: timedOut ? 'timeout' : 'unreachable', detail: (e as Error).message };
    }
    if (!res.ok) return { ok: false, reason: 'refused', detail: `HTTP ${res.status}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, reason: 'malformed', detail: 'not JSON' };
    }
    const payload = (parsed as { payload?: { data?: unknown } } | null)?.payload;
    const data = payload && typeof payload === 'object' && 'data' in payload ? payload.data : parsed;
    if (!Value.Check(result, data)) return { ok: false, reason: 'malformed', detail: 'not the agreed shape' };
    return { ok: true, data: data as Static<S> };
  }
}
