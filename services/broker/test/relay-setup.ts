/**
 * A broker listening on a real port in front of the fake provider, for the relay tests: the
 * usage recorder is the real one (reachable for settled()), the conversation saver records what
 * it is given, and `post` sends raw requests with fetch.
 */
import { AppError } from '@platform/kit';
import type { ProviderEndpoint } from '../src/config.ts';
import { BUILT_IN_CATALOG, type CatalogModel } from '../src/domain/catalog.ts';
import type {
  Actor,
  BudgetGate,
  CompletedCall,
  ConversationSaver,
  ReplyToSave,
  RouteDecision,
  RouteRequest,
  Router,
  UsageSink,
} from '../src/relay/ports.ts';
import { type RecorderOptions, UsageRecorder } from '../src/relay/usage-recorder.ts';
import { type FakeOptions, type FakeProvider, startFakeProvider } from './fakes/providers.ts';
import { endpointsAt, type Harness, type HarnessOptions, harness, SERVICE_TOKEN } from './harness.ts';

export const PROVIDER_KEY = 'provider-test-key';
/** The shared service token's header, as the agents service sends it. */
export const SERVICE_HEADERS = { 'x-platform-service-token': SERVICE_TOKEN };

/** A budget gate refusing the emails in `over` (402 over_budget) and noting every spend. */
export class TestBudgets implements BudgetGate {
  readonly over = new Set<string>();
  readonly checks: Actor[] = [];
  readonly spends: { fid: string; micros: number }[] = [];
  async check(actor: Actor): Promise<void> {
    this.checks.push(actor);
    if (actor.email && this.over.has(actor.email)) {
      throw new AppError(402, 'over_budget', 'The monthly budget is spent');
    }
  }
  spent(actorFid: string, costMicros: number): void {
    this.spends.push({ fid: actorFid, micros: costMicros });
  }
}

/**
 * A router that keeps every model unless told to substitute one (a rule), or to grade one lower
 * (routed); with `off` it keeps everything (routing off for the caller).
 */
export class TestRouter implements Router {
  readonly rules = new Map<string, CatalogModel>();
  readonly graded = new Map<string, CatalogModel>();
  readonly off = new Set<string>();
  readonly requests: RouteRequest[] = [];
  async decide(req: RouteRequest): Promise<RouteDecision> {
    this.requests.push(req);
    const keep = (outcome: RouteDecision['outcome']): RouteDecision => ({
      model: req.model,
      substituted: false,
      classifier: null,
      family: req.model.family ?? null,
      tier: req.model.tier ?? null,
      outcome,
      rule_id: null,
      grading_cost_micros: 0,
    });
    if (req.actor.email && this.off.has(req.actor.email)) return keep('off');
    const rule = this.rules.get(req.model.wire_id);
    if (rule) return { ...keep('rule'), model: rule, substituted: true, tier: rule.tier ?? null, rule_id: 'test-rule' };
    const graded = this.graded.get(req.model.wire_id);
    if (graded) {
      return {
        ...keep('routed'),
        model: graded,
        substituted: true,
        tier: graded.tier ?? null,
        classifier: 'quick_check',
      };
    }
    return keep('kept');
  }
}

export class RecordingSaver implements ConversationSaver {
  readonly saved: ReplyToSave[] = [];
  save(reply: ReplyToSave): void {
    this.saved.push(reply);
  }
  async settled(): Promise<void> {}
}

export interface RelayHarnessOptions extends HarnessOptions {
  fake?: FakeOptions;
  /** Endpoints built from the fake's base URL (default: every provider at the fake, with its key). */
  endpointsFor?: (fakeBaseUrl: string) => ProviderEndpoint[];
  recorder?: RecorderOptions;
}

export interface Posted {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever the body holds
  json: any;
}

export async function relayHarness(o: RelayHarnessOptions = {}) {
  const fake: FakeProvider = await startFakeProvider({ key: PROVIDER_KEY, ...o.fake });
  const catalog = o.catalog ?? BUILT_IN_CATALOG;
  const budgets = o.budgets ?? new TestBudgets();
  const conversations = o.conversations ?? new RecordingSaver();
  const router = o.router ?? new TestRouter();
  const recorded: CompletedCall[] = [];
  let recordWaiters: { actor: string; resolve: (c: CompletedCall) => void }[] = [];
  let recorder: UsageRecorder | undefined;
  // The recorder needs the harness's database, which exists only once the app is built.
  const usage: UsageSink = {
    record: (c) => {
      recorded.push(c);
      recordWaiters = recordWaiters.filter((w) => {
        if (w.actor !== c.usage.actor_fid) return true;
        w.resolve(c);
        return false;
      });
      return recorder ? recorder.record(c) : Promise.resolve(false);
    },
    settled: () => recorder?.settled() ?? Promise.resolve(),
    close: () => recorder?.close() ?? Promise.resolve(),
  };
  const h: Harness = await harness({
    ...o,
    catalog,
    budgets,
    conversations,
    router,
    usage,
    endpoints: o.endpointsFor?.(fake.baseUrl) ?? endpointsAt(catalog, fake.baseUrl, PROVIDER_KEY),
  });
  recorder = new UsageRecorder(h.db, budgets, o.recorder);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Posted> => {
    const r = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    const bytes = Buffer.from(await r.arrayBuffer());
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.status, headers: r.headers, bytes, text, json };
  };

  /** The usage rows once every recorded call is written, oldest first. */
  const usageRows = async () => {
    await usage.settled();
    return h.db.selectFrom('usage_events').selectAll().orderBy('occurred_at').orderBy('id').execute();
  };

  /** Resolves with the first call recorded for `actorFid` (at once when there is one already). */
  const recordedFor = (actorFid: string): Promise<CompletedCall> => {
    const done = recorded.find((c) => c.usage.actor_fid === actorFid);
    if (done) return Promise.resolve(done);
    return new Promise((resolve) => recordWaiters.push({ actor: actorFid, resolve }));
  };

  return {
    ...h,
    fake,
    recordedFor,
    url,
    post,
    usage,
    usageRows,
    recorded,
    budgets,
    conversations,
    router,
    async close() {
      // fetch may hold a spare keep-alive connection after an aborted call; the server would wait for it.
      h.app.server.closeAllConnections();
      await h.close_();
      await fake.close();
    },
  };
}

export type RelayHarness = Awaited<ReturnType<typeof relayHarness>>;

/** The error codes of an enveloped error reply. */
export const codes = (r: Posted): string[] =>
  // biome-ignore lint/suspicious/noExplicitAny: an error envelope
  (r.json?.payload?.errors ?? []).map((e: any) => e.code);
