import { Command, Uuid, Why } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { ScopeParams } from './common.ts';

const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const OutboxCountsView = Type.Object({
  service: Type.String({ description: "The service (its schema in the subscription's database)" }),
  total: Type.Integer(),
  pending: Type.Integer({ description: 'Not yet published' }),
  failing: Type.Integer({ description: 'Not yet published, and the last send failed' }),
  published: Type.Integer(),
  oldest_pending_at: Time,
  last_published_at: Time,
});

export const OutboxEventView = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  subject: Type.String(),
  restricted: Type.Boolean(),
  occurred_at: Type.String({ format: 'date-time' }),
  published_at: Time,
  attempts: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
  republished: Type.Integer({ description: 'How often an operator republished it' }),
  payload: Type.Unknown({ description: 'The envelope as sent; null for a restricted event (personal data)' }),
});

export const ServiceParams = Type.Object({
  ...ScopeParams.properties,
  service: Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$' }),
});

export const EventParams = Type.Object({ ...ServiceParams.properties, event_id: Uuid });

export const EventsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('all'), Type.Literal('pending'), Type.Literal('published'), Type.Literal('failing')], {
        default: 'all',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'Rows below this outbox row id (paging back)' })),
  },
  { additionalProperties: false },
);

export const EventsPage = Type.Object({ service: Type.String(), events: Type.Array(OutboxEventView) });

/** The republish takes no fields: {data: {}} or no body at all, with an optional why. */
export const RepublishBody = Type.Object(
  { data: Type.Optional(Type.Object({}, { additionalProperties: false })), why: Type.Optional(Why) },
  { additionalProperties: false },
);
export { Command };
