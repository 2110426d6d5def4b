import { sql } from 'kysely';
import type { Tier } from '../domain/catalog.ts';
import type { Period } from '../domain/period.ts';
import type { Savings } from '../schemas/savings.ts';
import type { Db } from './db.ts';
import { readRules } from './routing.ts';

/** The identities a report covers: null for everyone. */
export type Scope = string[] | null;

/** Cache and routing savings over a period, per model used and, for routing, per rule and per family and tier. */
export async function readSavings(db: Db, period: Period, scope: Scope): Promise<Savings> {
  const inScope = scope === null ? sql`true` : sql`actor_fid IN (${sql.join(scope)})`;
  const models = await sql<{
    provider: string;
    model: string;
    calls: number;
    cost_micros: number;
    cache_savings_micros: number;
    routing_savings_micros: number;
  }>`
    SELECT provider, model, sum(calls) AS calls, sum(cost_micros) AS cost_micros,
      sum(cache_savings_micros) AS cache_savings_micros, sum(routing_savings_micros) AS routing_savings_micros
    FROM usage_daily
    WHERE day BETWEEN ${period.from} AND ${period.to} AND ${inScope}
    GROUP BY provider, model`.execute(db);
  const by_model = models.rows
    .map((r) => ({
      ...r,
      baseline_micros: r.cost_micros + r.cache_savings_micros + r.routing_savings_micros,
    }))
    .sort(
      (a, b) =>
        b.baseline_micros - a.baseline_micros || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model),
    );
  const total = (k: 'cost_micros' | 'cache_savings_micros' | 'routing_savings_micros' | 'baseline_micros') =>
    by_model.reduce((s, r) => s + r[k], 0);

  const decisions = sql`FROM routing_decisions WHERE day BETWEEN ${period.from} AND ${period.to} AND ${inScope}`;
  const routed = sql`count(*) FILTER (WHERE model <> requested_model)::int`;
  const totals = await sql<{ routed_calls: number; gross: number | null; grading: number | null }>`
    SELECT ${routed} AS routed_calls, sum(savings_micros) AS gross, sum(grading_cost_micros) AS grading
    ${decisions}`.execute(db);
  const byRule = await sql<{ rule_id: string; routed_calls: number; savings_micros: number }>`
    SELECT rule_id, ${routed} AS routed_calls, sum(savings_micros) AS savings_micros
    ${decisions} AND rule_id IS NOT NULL
    GROUP BY rule_id ORDER BY sum(savings_micros) DESC, rule_id`.execute(db);
  const byFamilyTier = await sql<{
    family: string | null;
    tier: Tier | null;
    routed_calls: number;
    savings_micros: number;
    grading_cost_micros: number;
  }>`
    SELECT family, tier, ${routed} AS routed_calls, sum(savings_micros) AS savings_micros,
      sum(grading_cost_micros) AS grading_cost_micros
    ${decisions}
    GROUP BY family, tier
    HAVING count(*) FILTER (WHERE model <> requested_model) > 0 OR sum(grading_cost_micros) > 0
    ORDER BY family NULLS LAST, array_position(ARRAY['light', 'standard', 'heavy'], tier) NULLS LAST`.execute(db);
  const names = new Map((await readRules(db)).map((r) => [r.id, r.name]));
  const t = totals.rows[0];
  const gross = t?.gross ?? 0;
  const grading = t?.grading ?? 0;
  return {
    ...period,
    cost_micros: total('cost_micros'),
    cache_savings_micros: total('cache_savings_micros'),
    routing_savings_micros: total('routing_savings_micros'),
    baseline_micros: total('baseline_micros'),
    by_model,
    routing: {
      routed_calls: t?.routed_calls ?? 0,
      gross_savings_micros: gross,
      grading_cost_micros: grading,
      net_savings_micros: gross - grading,
      by_rule: byRule.rows.map((r) => ({ ...r, name: names.get(r.rule_id) ?? null })),
      by_family_tier: byFamilyTier.rows,
    },
  };
}
