import { type Static, Type } from '@sinclair/typebox';
import { TIERS } from '../domain/catalog.ts';
import { ROUTED_APIS } from '../domain/routing.ts';

const Day = Type.String({ description: 'YYYY-MM-DD (UTC)', examples: ['2025-06-01'] });
const Micros = Type.Integer({ description: 'Micro-dollars (1e-6 USD)' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });

export const TierName = Type.Union(
  TIERS.map((t) => Type.Literal(t)),
  { description: 'light < standard < heavy' },
);
export const RoutedApiName = Type.Union(
  ROUTED_APIS.map((a) => Type.Literal(a)),
  { description: 'The relay route: chat (chat completions), responses or messages' },
);
export const Outcome = Type.Union(
  (['rule', 'routed', 'kept', 'off'] as const).map((o) => Type.Literal(o)),
  {
    description:
      'rule: a substitution rule decided; routed: grading chose a cheaper model; kept: the model asked for; off: routing is off for the caller',
  },
);

export const RuleMatch = Type.Object(
  {
    model: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[^*]*\\*?$',
      description: 'An exact wire id, or a prefix ending in * (* alone matches every model)',
    }),
    provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only calls to this provider' })),
    api: Type.Optional(RoutedApiName),
  },
  { additionalProperties: false },
);

export const RuleInput = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
        description: 'Kept across replacements so savings by rule stay attached; a new UUID when omitted',
      }),
    ),
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Trimmed; not blank' }),
    match: RuleMatch,
    target_model: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "A catalog wire id the matched call's provider offers, at no higher price",
    }),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
  },
  { additionalProperties: false },
);

export const RulesInput = Type.Object(
  {
    rules: Type.Array(RuleInput, {
      maxItems: 200,
      description: 'The whole list, in the order rules are tried: the first enabled match wins',
    }),
  },
  { additionalProperties: false },
);
export type RulesInput = Static<typeof RulesInput>;

export const Rule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  match: Type.Object({
    model: Type.String(),
    provider: Type.Optional(Type.String()),
    api: Type.Optional(RoutedApiName),
  }),
  target_model: Type.String(),
  enabled: Type.Boolean(),
});

export const AutoRouteInput = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320, description: 'Compared ignoring case' }),
    enabled: Type.Boolean({ description: 'false turns routing off for the email; true turns it back on' }),
  },
  { additionalProperties: false },
);
export type AutoRouteInput = Static<typeof AutoRouteInput>;

export const AutoRoute = Type.Object({
  email: Type.String(),
  enabled: Type.Boolean(),
  off_at: Nullable(Type.String({ format: 'date-time' }), 'When routing was turned off; null when on'),
  off_by: Nullable(Type.String(), 'Who turned it off (email, or principal id without one); null when on'),
});

export const RoutingException = Type.Object({
  email: Type.String(),
  off_at: Type.String({ format: 'date-time' }),
  off_by: Type.String(),
});

export const Settings = Type.Object({
  quick_check: Type.Object(
    {
      max_input_chars: Type.Integer({ description: 'Text characters, system and instructions included' }),
      max_messages: Type.Integer(),
      excludes: Type.Array(Type.String(), { description: 'A request with any of these never passes' }),
    },
    { description: 'A request within these limits grades light and goes to its family’s cheapest light model' },
  ),
  classifier: Nullable(
    Type.Object({
      provider: Type.String(),
      model: Type.String(),
      max_input_chars: Type.Integer({ description: 'The ceiling: longer requests are kept as asked' }),
    }),
    'The model that grades requests past the quick check (null: none; those requests are kept)',
  ),
});

const ModelPrices = Type.Object({
  input: Micros,
  output: Micros,
  cache_read: Micros,
});

export const Family = Type.Object({
  family: Type.String(),
  models: Type.Array(
    Type.Object({
      provider: Type.String(),
      wire_id: Type.String(),
      name: Type.String(),
      tier: Nullable(TierName, 'The tier within the family'),
      prices: ModelPrices,
      price_measure: Type.Integer({
        description: 'input + output price in micro-dollars per million tokens: the order (cheapest first)',
      }),
    }),
  ),
});

export const ReportQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'First day, inclusive (default: the first day of this month, UTC)' })),
  to: Type.Optional(Type.String({ description: 'Last day, inclusive (default: today, UTC)' })),
  actor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 320,
      description: "An identity's FID or email; others than admins may name only themselves and what they created",
    }),
  ),
});

export const StatsQuery = Type.Composite([
  ReportQuery,
  Type.Object({
    family: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    classifier: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "quick_check or a classifier model's wire id" }),
    ),
  }),
]);
export type StatsQuery = Static<typeof StatsQuery>;

export const StatsRow = Type.Object({
  day: Day,
  family: Nullable(Type.String(), 'null for models outside every family'),
  tier: Nullable(TierName, 'The tier of the model sent'),
  classifier: Nullable(Type.String(), 'quick_check, the classifier model, or null when no grading ran'),
  outcome: Outcome,
  decisions: Type.Integer(),
  substituted: Type.Integer({ description: 'Decisions that sent another model than the one asked for' }),
  savings_micros: Micros,
  grading_cost_micros: Micros,
});
