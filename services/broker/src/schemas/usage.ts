import { AppError, Command, type ErrorDetail, Header, PagePagination, pageQuery, Timestamp } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify';
import { USAGE_GROUPS } from '../domain/usage.ts';

/**
 * A route's schema errors as 422s, with the codes the spec gives some fields (bad_period,
 * bad_limit) and validation_failed for the rest, each naming its field as the kit does.
 */
export const fieldCodes =
  (codes: Record<string, string>) => (errors: FastifySchemaValidationError[], dataVar: string) => {
    const details: ErrorDetail[] = errors.map((e) => {
      let field = `${dataVar}${e.instancePath}`;
      const params = e.params as { missingProperty?: string; additionalProperty?: string };
      if (e.keyword === 'required') field = `${field}/${params.missingProperty}`;
      if (e.keyword === 'additionalProperties') field = `${field}/${params.additionalProperty}`;
      const message =
        e.keyword === 'additionalProperties'
          ? 'is not an accepted property'
          : e.keyword === 'required'
            ? 'is required'
            : (e.message ?? 'is invalid');
      return { code: codes[field] ?? 'validation_failed', field, message: `${field} ${message}` };
    });
    return new AppError(422, details[0].code, details[0].message, details);
  };

export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC)' });

/** An identity named in a query or path: its FID or its email. */
export const ActorRef = Type.String({ minLength: 1, maxLength: 320, description: 'A FID or an email' });

/** The filters every usage read takes. */
const usageFilters = {
  from: Type.Optional({
    ...DateString,
    description: 'First day, inclusive (default: the first day of the month of to)',
  }),
  to: Type.Optional({ ...DateString, description: 'Last day, inclusive (default: today, UTC)' }),
  actor: Type.Optional({ ...ActorRef, description: "One identity's calls (FID or email)" }),
  person: Type.Optional({ ...ActorRef, description: 'A person and the identities they created' }),
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A wire id' })),
  by_creator: Type.Optional(
    Type.Boolean({ description: "true counts agents' and services' calls under the person who created them" }),
  ),
};

/** from and to of the wrong form are bad periods. */
export const periodErrors = fieldCodes({ 'querystring/from': 'bad_period', 'querystring/to': 'bad_period' });

export const UsageFilterQuery = Type.Object(usageFilters, { additionalProperties: false });
export type UsageFilterQuery = Static<typeof UsageFilterQuery>;

export const UsageQuery = Type.Object(
  {
    ...usageFilters,
    group: Type.Optional(
      Type.Union(
        USAGE_GROUPS.map((g) => Type.Literal(g)),
        {
          default: 'day',
          description:
            'day: one row per day; person_model, person, model, provider: sums over the range; call: the calls themselves, newest first, paged',
        },
      ),
    ),
    ...pageQuery({ pageSize: 50, maxPageSize: 500 }),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

const Micros = (description: string) => Type.Integer({ description: `${description}, in micro-dollars` });

export const UsageTotals = Type.Object({
  calls: Type.Integer(),
  input_tokens: Type.Integer({ description: 'Including cache reads' }),
  output_tokens: Type.Integer(),
  cache_read_tokens: Type.Integer(),
  cost_micros: Micros('What the calls cost'),
  cache_savings_micros: Micros('What cache reads saved'),
  routing_savings_micros: Micros('What routing to cheaper models saved'),
});
export type UsageTotals = Static<typeof UsageTotals>;

/** A row of a grouped read: the group's keys, then its sums. */
export const UsageGroupRow = Type.Composite([
  Type.Object({
    day: Type.Optional(Type.String({ description: 'group=day' })),
    actor_fid: Type.Optional(Type.String({ description: 'group=person and person_model: whom the row counts' })),
    actor_email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    actor_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    actor_kind: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    provider: Type.Optional(Type.String()),
    provider_kind: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
  }),
  UsageTotals,
]);
export type UsageGroupRow = Static<typeof UsageGroupRow>;

/** One call (group=call): the spec's usage row. */
export const UsageCall = Type.Object({
  id: Type.String(),
  occurred_at: Timestamp,
  day: Type.String(),
  actor_fid: Type.String(),
  provider: Type.String(),
  provider_kind: Type.String(),
  model: Type.String({ description: 'The model used' }),
  requested_model: Type.Optional(
    Type.String({ description: 'Only when routing substituted the model: the model the caller asked for' }),
  ),
  request_kind: Type.String(),
  input_tokens: Type.Integer(),
  output_tokens: Type.Integer(),
  cache_read_tokens: Type.Integer(),
  cost_micros: Type.Integer(),
  cache_savings_micros: Type.Integer(),
  routing_savings_micros: Type.Integer(),
  source: Type.Union([Type.Literal('relay'), Type.Literal('report')]),
  estimated: Type.Boolean({
    description:
      "The provider's count never came (a reply without usage, or one cut short by the caller or the provider): tokens were estimated from the request's text and the text relayed (about 4 characters a token)",
  }),
});
export type UsageCall = Static<typeof UsageCall>;

export const UsageEnvelope = Type.Object({
  header: Header,
  payload: Type.Object({
    data: Type.Array(Type.Union([UsageGroupRow, UsageCall])),
    meta: Type.Optional(Type.Object({ pagination: PagePagination }, { description: 'group=call only' })),
  }),
});

export const UsageSummary = Type.Composite([Type.Object({ from: Type.String(), to: Type.String() }), UsageTotals]);

export const UsageReport = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 100 }),
    model: Type.String({ minLength: 1, maxLength: 200, description: 'The wire id of the model used' }),
    request_kind: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z0-9_.-]{0,39}$',
        description: 'e.g. chat, responses, messages; default other',
      }),
    ),
    input_tokens: Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Including cache reads' }),
    output_tokens: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    cache_read_tokens: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    occurred_at: Type.Optional({ ...Timestamp, description: 'Default: now' }),
    actor_fid: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Whom to bill when not the caller (platform admins)' }),
    ),
  },
  { additionalProperties: false },
);
export type UsageReport = Static<typeof UsageReport>;

export const UsageReportCommand = Command(UsageReport);
