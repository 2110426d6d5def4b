import { type Static, Type } from '@sinclair/typebox';
import { TierName } from './routing.ts';

const Micros = (description: string) => Type.Integer({ description: `${description}, in micro-dollars (1e-6 USD)` });
const Day = Type.String({ description: 'YYYY-MM-DD (UTC)' });

export const ModelSavings = Type.Object({
  provider: Type.String(),
  model: Type.String({ description: 'The model the calls were sent to' }),
  calls: Type.Integer(),
  cost_micros: Micros('What the calls cost'),
  cache_savings_micros: Micros('What cache reads saved against the input price'),
  routing_savings_micros: Micros('What the models asked for would have cost more'),
  baseline_micros: Micros('The cost without cache and routing: cost + cache savings + routing savings'),
});

export const RuleSavings = Type.Object({
  rule_id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()], { description: 'The rule as it is named now; null once removed' }),
  routed_calls: Type.Integer({ description: 'Calls the rule sent to another model' }),
  savings_micros: Micros('Gross savings of those calls'),
});

export const FamilyTierSavings = Type.Object({
  family: Type.Union([Type.String(), Type.Null()]),
  tier: Type.Union([TierName, Type.Null()], { description: 'The tier the calls were sent to' }),
  routed_calls: Type.Integer(),
  savings_micros: Micros('Gross savings'),
  grading_cost_micros: Micros('What grading these calls cost'),
});

export const Savings = Type.Object({
  from: Day,
  to: Day,
  cost_micros: Micros('What the calls in scope cost'),
  cache_savings_micros: Micros('Cache savings'),
  routing_savings_micros: Micros('Gross routing savings recorded on the usage rows'),
  baseline_micros: Micros('The cost without cache and routing'),
  by_model: Type.Array(ModelSavings, {
    description: 'One row per provider and model used, by baseline, largest first',
  }),
  routing: Type.Object({
    routed_calls: Type.Integer({ description: 'Calls sent to another model than the one asked for' }),
    gross_savings_micros: Micros('What the routed calls saved'),
    grading_cost_micros: Micros('What the classifier model cost'),
    net_savings_micros: Micros('Gross savings less grading cost'),
    by_rule: Type.Array(RuleSavings),
    by_family_tier: Type.Array(FamilyTierSavings, {
      description: 'Families and tiers with routed calls or grading cost',
    }),
  }),
});
export type Savings = Static<typeof Savings>;
