/**
 * What the relay asks of the other areas, one interface each: the budget gate (budgets), the
 * router (routing), the usage recorder (usage) and the conversation saver (saved conversations).
 * buildApp wires the implementations; tests may pass their own.
 */
import type { Principal } from '@platform/kit';
import type { Api, CatalogModel, CatalogProvider, Tier } from '../domain/catalog.ts';
import type { UsageRecord } from '../store/usage-writes.ts';

/** Who a relay call is billed to: the principal's identity (the mailbox for harness calls). */
export interface Actor {
  fid: string;
  email?: string;
}

export interface BudgetGate {
  /** 402 (`over_budget`) when the actor's spend this month has reached their effective limit. */
  check(actor: Actor, now: Date): Promise<void>;
  /** A call's cost, counted at once so the next check on this replica sees it. */
  spent(actorFid: string, costMicros: number, now: Date): void;
  /** Drops cached figures after a budget write: one actor's (override) or everyone's (default). */
  invalidate?(fid?: string): void;
}

export interface RouteRequest {
  api: Api;
  actor: Actor;
  provider: CatalogProvider;
  model: CatalogModel;
  /** The parsed provider request (read only). */
  body: Record<string, unknown>;
  now: Date;
}

/** What routing decided for one call; recorded for stats with the call's usage. */
export interface RouteDecision {
  /** The model to send: the requested one unless substituted. */
  model: CatalogModel;
  /** true when `model` differs from what the caller asked for. */
  substituted: boolean;
  /** quick_check, or the classifier model's wire id; null when a rule decided. */
  classifier: string | null;
  family: string | null;
  tier: Tier | null;
  /** rule (a substitution rule matched), routed (grading chose a cheaper tier), kept, or off. */
  outcome: 'rule' | 'routed' | 'kept' | 'off';
  rule_id: string | null;
  grading_cost_micros: number;
}

export interface Router {
  /** The model to use. Never substitutes when routing is off for the caller. */
  decide(req: RouteRequest): Promise<RouteDecision>;
  /** Rules or opt-outs changed on this replica: the next decision reads them afresh. */
  invalidate?(): void;
}

/** A completed call: its usage row and, when routing ran, the decision (its stats row). */
export interface CompletedCall {
  usage: UsageRecord;
  decision?: RouteDecision & { actor_fid: string; requested_model: string; savings_micros: number };
}

export interface UsageSink {
  /**
   * Queues a call once the provider replied. Resolves true once its row is committed (the relay
   * sends the end of the reply only then), false when it could not be written (yet).
   */
  record(call: CompletedCall): Promise<boolean>;
  /** Resolves once everything recorded so far is committed (reads call it first). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** One relayed API-credential call, after the reply, for saving as a workspace conversation. */
export interface ReplyToSave {
  principal: Principal;
  api: Api;
  provider: string;
  model: string;
  /** The request as the caller sent it (parsed). */
  request: Record<string, unknown>;
  /** The reply's text (assembled from the stream when streamed). */
  replyText: string;
  /** The provider's response id (responses API), for previous_response_id. */
  responseId?: string;
  /** The relevant request headers: X-Platform-Conversation-Id and X-Platform-Knowledge. */
  conversationId?: string;
  knowledge: boolean;
}

export interface ConversationSaver {
  /** Best effort: never throws, never delays the reply. */
  save(reply: ReplyToSave): void;
  settled(): Promise<void>;
}
