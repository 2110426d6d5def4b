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

/** POST /v1/conversations/objections: claims from the knowledge layer that argue against a plan. */
export const ObjectionsRequest = Type.Object({
  conversation_id: Type.String(),
  project_id: Type.Union([Type.String(), Type.Null()]),
  plan: Type.String(),
  /** private: only the caller reads the conversation; shared: quotes are dropped before anyone sees them. */
  audience: Type.Union([Type.Literal('private'), Type.Literal('shared')]),
  /** Claims already raised in this conversation: not to be returned again. */
  exclude_claim_ids: Type.Array(Type.String()),
  limit: Type.Integer({ minimum: 1 }),
});
export type ObjectionsRequest = Static<typeof ObjectionsRequest>;

export const ClaimSource = Type.Object({
  source_id: Type.String(),
  kind: Type.String(),
  title: Type.String(),
  quote: Type.Optional(Type.String()),
});
export const ObjectionsResult = Type.Object({
  claims: Type.Array(
    Type.Object({
      claim_id: Type.String({ minLength: 1 }),
      statement: Type.String(),
      confidence: Type.Number({ minimum: 0, maximum: 1 }),
      sources: Type.Array(ClaimSource),
    }),
  ),
});
export type ObjectionsResult = Static<typeof ObjectionsResult>;

/** POST /v1/conversations/related: claims and records related to one message of the person served. */
export const RelatedRequest = Type.Object({
  conversation_id: Type.String(),
  project_id: Type.Union([Type.String(), Type.Null()]),
  turn_seq: Type.Integer(),
  text: Type.String(),
  limit: Type.Integer({ minimum: 1 }),
});
export type RelatedRequest = Static<typeof RelatedRequest>;

export const RelatedResult = Type.Object({
  claims: Type.Array(
    Type.Object({
      claim_id: Type.String({ minLength: 1 }),
      statement: Type.String(),
      score: Type.Number({ minimum: 0, maximum: 1 }),
    }),
  ),
  records: Type.Array(Type.Object({ kind: Type.String(), id: Type.String({ minLength: 1 }), title: Type.String() })),
});
export type RelatedResult = Static<typeof RelatedResult>;

export interface Intelligence {
  suggestProjects(req: SuggestProjectsRequest, onBehalfOf: string): Promise<IntelligenceAnswer<SuggestProjectsResult>>;
  objections(req: ObjectionsRequest, onBehalfOf: string): Promise<IntelligenceAnswer<ObjectionsResult>>;
  related(req: RelatedRequest, onBehalfOf: string): Promise<IntelligenceAnswer<RelatedResult>>;
}

/**
 * The people endpoints person-context-refresh reads (issue 19; contract in docs/decisions.md,
 * "Internal jobs: person context"): the roster, a person's sources in a window, and what a
 * reread of some of them shows (assignments: a person on a project in a role).
 */
export const RosterResult = Type.Object({
  people: Type.Array(
    Type.Object({ person_id: Type.String({ minLength: 1 }), email: Type.String(), name: Type.String() }),
  ),
});
export type RosterResult = Static<typeof RosterResult>;

export const PersonSourcesRequest = Type.Object({
  person_id: Type.String(),
  /** Sources updated within this many days. */
  window_days: Type.Integer({ minimum: 1 }),
});
export type PersonSourcesRequest = Static<typeof PersonSourcesRequest>;

export const PersonSourcesResult = Type.Object({
  sources: Type.Array(
    Type.Object({
      source_id: Type.String({ minLength: 1 }),
      kind: Type.String(),
      /** When the source last changed (ISO 8601): a source whose value is unchanged is not reread. */
      updated_at: Type.String(),
    }),
  ),
});
export type PersonSourcesResult = Static<typeof PersonSourcesResult>;

export const PersonContextRequest = Type.Object({ person_id: Type.String(), source_ids: Type.Array(Type.String()) });
export type PersonContextRequest = Static<typeof PersonContextRequest>;

export const PersonContextResult = Type.Object({
  assignments: Type.Array(
    Type.Object({
      assignment_id: Type.String({ minLength: 1 }),
      project_id: Type.String(),
      role: Type.String(),
    }),
  ),
});
export type PersonContextResult = Static<typeof PersonContextResult>;

export interface PeopleContext {
  /** POST /v1/people/roster: every person the intelligence service knows. */
  roster(): Promise<IntelligenceAnswer<RosterResult>>;
  /** POST /v1/people/sources: a person's sources updated within the window. */
  personSources(req: PersonSourcesRequest): Promise<IntelligenceAnswer<PersonSourcesResult>>;
  /** POST /v1/people/context: rereads these sources; the assignments they show. */
  personContext(req: PersonContextRequest): Promise<IntelligenceAnswer<PersonContextResult>>;
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
export class HttpIntelligence implements Intelligence, PeopleContext {
  constructor(private readonly o: IntelligenceOptions) {}

  suggestProjects(req: SuggestProjectsRequest, onBehalfOf: string) {
    return this.post('/v1/conversations/project-suggestions', req, onBehalfOf, SuggestProjectsResult);
  }

  objections(req: ObjectionsRequest, onBehalfOf: string) {
    return this.post('/v1/conversations/objections', req, onBehalfOf, ObjectionsResult);
  }

  related(req: RelatedRequest, onBehalfOf: string) {
    return this.post('/v1/conversations/related', req, onBehalfOf, RelatedResult);
  }

  // The people endpoints are the workspace's own calls (a scheduled job): on behalf of no person.
  roster() {
    return this.post('/v1/people/roster', {}, undefined, RosterResult);
  }

  personSources(req: PersonSourcesRequest) {
    return this.post('/v1/people/sources', req, undefined, PersonSourcesResult);
  }

  personContext(req: PersonContextRequest) {
    return this.post('/v1/people/context', req, undefined, PersonContextResult);
  }

  /** One call: JSON in, the platform envelope's payload.data (or a bare body) out, checked against `result`. */
  private async post<S extends TSchema>(
    path: string,
    body: unknown,
    onBehalfOf: string | undefined,
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
          ...(onBehalfOf ? { 'x-platform-on-behalf-of': onBehalfOf } : {}),
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
