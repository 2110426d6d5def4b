import { randomUUID } from 'node:crypto';
import type { HarnessConfig } from './config.ts';
import { type CallContext, CallError, send, withRetries } from './http.ts';

/**
 * The harness's two neighbours. The agents service: every call carries the shared service token
 * and X-Platform-Agent-Id (the call acts as the agent's owner, AGT-315/AGT-316), every command a
 * fresh Idempotency-Key that its retries reuse, so a retried command after a lost answer is
 * answered from the first one instead of running twice. The broker: its OpenAI-compatible relay,
 * billed to the agent's mailbox through X-Platform-On-Behalf-Of.
 */

/** What the harness reads of its agent (GET /v1/agents/{id}). */
export interface AgentRecord {
  id: string;
  slug: string;
  name: string;
  email: string;
  instructions: string | null;
  model: string;
  lifetime: 'persistent' | 'ephemeral';
  status: string;
  desired_state: string;
  generation: number;
  ttl_at: string | null;
}

/** One waiting wake as the drain hands it out. */
export interface InboxItem {
  id: string;
  reason: string;
  ref?: string | null;
  created_at?: string;
}

export type LogKind = 'started' | 'heartbeat' | 'wake' | 'error' | 'skill' | 'info' | 'warn';
export type ExpireReason = 'finished' | 'wall_clock' | 'steps';

/** A completed wake, as POST /v1/agents/{id}/runs records it. */
export interface RunRecord {
  /** The wake the run answered (its reason comes with it); absent for a job's run of its own instructions. */
  inbox_item_id?: string;
  /** Only without inbox_item_id: the run's reason. */
  reason?: 'comms' | 'dream' | 'harvest' | 'manual';
  started_at: string;
  finished_at: string;
  outcome: 'completed' | 'failed' | 'max_turns';
  /** Model calls made: the platform harness makes one per wake. */
  turns: number;
  /** The model that answered (after the broker's routing), or the one asked for when the call failed. */
  model?: string;
  /** The start of the model's answer, or why the call failed. */
  summary?: string;
}

const AGENTS_ATTEMPTS = 8;
/** A relay call is not idempotent (each one is billed): only a few tries. */
const RELAY_ATTEMPTS = 3;

/** The drain's answer: the items handed out, oldest first. */
function itemsOf(data: unknown): InboxItem[] {
  if (!Array.isArray(data)) return [];
  return data.filter((i: unknown): i is InboxItem => typeof (i as InboxItem)?.id === 'string');
}

export class AgentsApi {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly cfg: HarnessConfig,
    private readonly ctx: CallContext,
  ) {
    this.base = `${cfg.agentsUrl}/v1/agents/${encodeURIComponent(cfg.agentId)}`;
    this.headers = { 'x-platform-service-token': cfg.serviceToken, 'x-platform-agent-id': cfg.agentId };
  }

  private async read(path: string): Promise<unknown> {
    const answer = await withRetries(() => send(this.base + path, { method: 'GET', headers: this.headers }, this.ctx), {
      signal: this.ctx.signal,
      attempts: AGENTS_ATTEMPTS,
    });
    return answer.json?.payload?.data;
  }

  private async command(path: string, data: unknown, key: string = randomUUID()): Promise<unknown> {
    const headers = { ...this.headers, 'idempotency-key': key };
    const answer = await withRetries(
      () => send(this.base + path, { method: 'POST', headers, body: { data } }, this.ctx),
      { signal: this.ctx.signal, attempts: AGENTS_ATTEMPTS },
    );
    return answer.json?.payload?.data;
  }

  async agent(): Promise<AgentRecord> {
    const data = (await this.read('')) as AgentRecord | undefined;
    if (!data?.id) throw new CallError('GET agent: the answer holds no agent', undefined, undefined, false);
    return data;
  }

  /** A log line (AGT-198); any line also marks the agent's heartbeat (AGT-025). */
  log(kind: LogKind, message: string) {
    return this.command('/logs', { kind, message });
  }

  /** Drains the waiting wakes: each is handed out once (AGT-195). */
  async inbox(): Promise<InboxItem[]> {
    return itemsOf(await this.read('/inbox'));
  }

  /** Records a completed wake (AGT-196); the key follows the wake, so a retried record replays the first one. */
  recordRun(run: RunRecord) {
    return this.command(
      '/runs',
      run,
      run.inbox_item_id ? `run-${this.cfg.agentId}-${run.inbox_item_id}` : randomUUID(),
    );
  }

  expire(reason: ExpireReason) {
    return this.command('/expire', { reason });
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatAnswer {
  model: string;
  text: string;
  inputTokens: number;
  outputTokens: number;
}

export class BrokerApi {
  private defaultModel?: string;

  private readonly base: string;

  constructor(
    private readonly cfg: HarnessConfig,
    private readonly ctx: CallContext,
  ) {
    this.base = cfg.brokerUrl ?? '';
  }

  private configured() {
    if (!this.cfg.brokerUrl)
      throw new CallError('no model broker is configured (BROKER_URL)', undefined, undefined, false);
  }

  /**
   * The model `auto` stands for: the broker has no such alias, so the harness asks its catalog for
   * the default provider's first model that speaks chat completions and has a key, else any such
   * model with a key, else (no key at all) the default provider's first chat model.
   */
  async autoModel(): Promise<string> {
    if (this.defaultModel) return this.defaultModel;
    this.configured();
    const answer = await withRetries(
      () =>
        send(
          `${this.base}/v1/catalog`,
          { method: 'GET', headers: { 'x-platform-service-token': this.cfg.serviceToken } },
          this.ctx,
        ),
      { signal: this.ctx.signal, attempts: AGENTS_ATTEMPTS },
    );
    const catalog = answer.json?.payload?.data as
      | {
          default_provider: string;
          providers: { id: string; apis: string[]; available: boolean }[];
          models: { provider: string; wire_id: string }[];
        }
      | undefined;
    const chatModels = (available: boolean) => {
      const chat = new Set(
        catalog?.providers.filter((p) => p.apis.includes('chat') && (p.available || !available)).map((p) => p.id),
      );
      const models = (catalog?.models ?? []).filter((m) => chat.has(m.provider));
      return models.find((m) => m.provider === catalog?.default_provider) ?? models[0];
    };
    // With no key anywhere the default model is still asked for: the relay's 503 then says which key is missing.
    const pick = chatModels(true) ?? chatModels(false);
    if (!pick) throw new CallError('the broker’s catalog has no chat model', undefined, undefined, false);
    this.defaultModel = pick.wire_id;
    return pick.wire_id;
  }

  /** One chat completion through the broker's relay, billed to `onBehalfOf` (the agent's mailbox). */
  async chat(model: string, messages: ChatMessage[], onBehalfOf: string): Promise<ChatAnswer> {
    this.configured();
    const answer = await withRetries(
      () =>
        send(
          `${this.base}/v1/relay/chat/completions`,
          {
            method: 'POST',
            headers: { 'x-platform-service-token': this.cfg.serviceToken, 'x-platform-on-behalf-of': onBehalfOf },
            body: { model, messages, max_tokens: 1024 },
          },
          this.ctx,
        ),
      { signal: this.ctx.signal, attempts: RELAY_ATTEMPTS, firstPauseMs: 1_000 },
    );
    const j = answer.json;
    const text = j?.choices?.[0]?.message?.content;
    if (typeof text !== 'string') throw new CallError('the relay answered no message', answer.status, undefined, false);
    return {
      model: typeof j.model === 'string' ? j.model : model,
      text,
      inputTokens: Number(j.usage?.prompt_tokens ?? 0),
      outputTokens: Number(j.usage?.completion_tokens ?? 0),
    };
  }
}
