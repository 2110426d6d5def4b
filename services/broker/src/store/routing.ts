import { iso } from '@platform/kit';
import { sql } from 'kysely';
import type { RoutedApi, RoutingRule, RoutingSettings } from '../domain/routing.ts';
import type { Db } from './db.ts';

interface RuleRow {
  id: string;
  position: number;
  name: string;
  match_model: string;
  match_provider: string | null;
  match_api: RoutedApi | null;
  target_model: string;
  enabled: boolean;
}

const toRule = (r: RuleRow): RoutingRule => ({
  id: r.id,
  name: r.name,
  match: {
    model: r.match_model,
    ...(r.match_provider === null ? {} : { provider: r.match_provider }),
    ...(r.match_api === null ? {} : { api: r.match_api }),
  },
  target_model: r.target_model,
  enabled: r.enabled,
});

/** The rules in the order they are tried. */
export async function readRules(db: Db): Promise<RoutingRule[]> {
  const rows = (await db.selectFrom('routing_rules').selectAll().orderBy('position').execute()) as RuleRow[];
  return rows.map(toRule);
}

/**
 * Replaces the whole list. The settings row is locked first so two replacements run one after
 * the other (each sees the other's rows and deletes them) instead of merging their lists.
 */
export async function replaceRules(trx: Db, rules: readonly RoutingRule[], by: string, now: Date): Promise<void> {
  await sql`SELECT id FROM routing_settings FOR UPDATE`.execute(trx);
  await trx.deleteFrom('routing_rules').execute();
  if (rules.length === 0) return;
  await trx
    .insertInto('routing_rules')
    .values(
      rules.map((r, position) => ({
        id: r.id,
        position,
        name: r.name,
        match_model: r.match.model,
        match_provider: r.match.provider ?? null,
        match_api: r.match.api ?? null,
        target_model: r.target_model,
        enabled: r.enabled,
        updated_by: by,
        updated_at: now,
      })),
    )
    .execute();
}

export async function readSettings(db: Db): Promise<RoutingSettings> {
  const r = await db.selectFrom('routing_settings').selectAll().executeTakeFirstOrThrow();
  return {
    max_input_chars: r.max_input_chars,
    max_messages: r.max_messages,
    classifier:
      r.classifier_provider && r.classifier_model
        ? { provider: r.classifier_provider, model: r.classifier_model, max_input_chars: r.classifier_max_input_chars }
        : null,
  };
}

export interface OptOut {
  email: string;
  off_at: string;
  off_by: string;
}

/** Those with routing off, by email. */
export async function readOptOuts(db: Db): Promise<OptOut[]> {
  const rows = await db.selectFrom('routing_opt_outs').selectAll().orderBy('email').execute();
  return rows.map((r) => ({ email: r.email, off_at: iso(r.off_at) as string, off_by: r.off_by }));
}

/**
 * Routing off keeps the first time it was turned off (a repeated "off" changes nothing); on
 * removes the row. Answers the email's state afterwards.
 */
export async function setAutoRoute(
  trx: Db,
  email: string,
  enabled: boolean,
  by: string,
  now: Date,
): Promise<OptOut | null> {
  if (enabled) {
    await trx.deleteFrom('routing_opt_outs').where('email', '=', email).execute();
    return null;
  }
  await trx
    .insertInto('routing_opt_outs')
    .values({ email, off_at: now, off_by: by })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const r = await trx.selectFrom('routing_opt_outs').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  return { email: r.email, off_at: iso(r.off_at) as string, off_by: r.off_by };
}
