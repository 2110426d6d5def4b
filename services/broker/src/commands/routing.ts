import { actorName } from '../domain/people.ts';
import type { RoutingRule } from '../domain/routing.ts';
import { readRules, replaceRules, setAutoRoute } from '../store/routing.ts';
import type { CommandCtx } from './context.ts';

/** Replaces the substitution rules (checked by domain/routing.ts checkRules first); answers the new list. */
export async function replaceRoutingRules({ trx, principal, now }: CommandCtx, rules: readonly RoutingRule[]) {
  await replaceRules(trx, rules, actorName(principal), now);
  return readRules(trx);
}

/** Turns routing on or off for one email; turning off an email already off keeps when and by whom. */
export async function setRouting({ trx, principal, now }: CommandCtx, email: string, enabled: boolean) {
  const off = await setAutoRoute(trx, email, enabled, actorName(principal), now);
  return { email, enabled, off_at: off?.off_at ?? null, off_by: off?.off_by ?? null };
}
