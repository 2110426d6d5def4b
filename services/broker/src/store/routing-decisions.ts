import { type QueryCreator, sql } from 'kysely';
import type { Tier } from '../domain/catalog.ts';
import type { CompletedCall, RouteDecision } from '../relay/ports.ts';
import type { Db } from './db.ts';
import { utcDay } from './usage-writes.ts';

/** One routing decision as stored: the stats row of a relayed call. Money in micro-dollars. */
export interface DecisionRecord {
  decided_at: Date;
  actor_fid: string;
  provider: string;
  family: string | null;
  /** The tier of the model sent. */
  tier: Tier | null;
  classifier: string | null;
  outcome: RouteDecision['outcome'];
  /** What the caller asked for (always set, unlike the usage row's requested_model). */
  requested_model: string;
  /** The model sent. */
  model: string;
  rule_id: string | null;
  grading_cost_micros: number;
  /** What the requested model would have cost less what the call cost (0 unless substituted). */
  savings_micros: number;
}

/** The decision row of a completed call, or null when routing did not run for it (speech, reports). */
export function decisionRecord(call: CompletedCall): DecisionRecord | null {
  const d = call.decision;
  if (!d) return null;
  return {
    decided_at: call.usage.occurred_at,
    actor_fid: d.actor_fid,
    provider: d.model.provider,
    family: d.family,
    tier: d.tier,
    classifier: d.classifier,
    outcome: d.outcome,
    requested_model: d.requested_model,
    model: d.model.wire_id,
    rule_id: d.rule_id,
    grading_cost_micros: d.grading_cost_micros,
    savings_micros: d.savings_micros,
  };
}

/** The insert of decision rows: a CTE of the usage recorder's one-statement write (insertCalls). */
// biome-ignore lint/suspicious/noExplicitAny: the store's tables are typed where they are read
export const decisionsInsert = (db: QueryCreator<any>, rows: readonly DecisionRecord[]) =>
  db.insertInto('routing_decisions').values(rows.map((r) => ({ ...r, day: utcDay(r.decided_at) })));

/** Stores decision rows in the given transaction (or connection). */
export async function insertDecisions(db: Db, rows: readonly DecisionRecord[]): Promise<void> {
  if (rows.length > 0) await decisionsInsert(db, rows).execute();
}

export interface StatsFilter {
  from: string;
  to: string;
  /** null: everyone. */
  actors: string[] | null;
  family?: string;
  classifier?: string;
}

export interface StatsRow {
  day: string;
  family: string | null;
  tier: Tier | null;
  classifier: string | null;
  outcome: RouteDecision['outcome'];
  decisions: number;
  substituted: number;
  savings_micros: number;
  grading_cost_micros: number;
}

/** Decisions counted by day, family, tier, classifier and outcome, oldest day first. */
export async function decisionStats(db: Db, f: StatsFilter): Promise<StatsRow[]> {
  let q = db
    .selectFrom('routing_decisions')
    .select([
      'day',
      'family',
      'tier',
      'classifier',
      'outcome',
      sql<number>`count(*)::int`.as('decisions'),
      sql<number>`count(*) FILTER (WHERE model <> requested_model)::int`.as('substituted'),
      sql<number>`sum(savings_micros)`.as('savings_micros'),
      sql<number>`sum(grading_cost_micros)`.as('grading_cost_micros'),
    ])
    .where('day', '>=', f.from)
    .where('day', '<=', f.to);
  if (f.actors !== null) q = q.where('actor_fid', 'in', f.actors.length > 0 ? f.actors : ['']);
  if (f.family !== undefined) q = q.where('family', '=', f.family);
  if (f.classifier !== undefined) q = q.where('classifier', '=', f.classifier);
  const rows = await q
    .groupBy(['day', 'family', 'tier', 'classifier', 'outcome'])
    .orderBy('day')
    .orderBy('family')
    .orderBy('tier')
    .orderBy('classifier')
    .orderBy('outcome')
    .execute();
  return rows as StatsRow[];
}
