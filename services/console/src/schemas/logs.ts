import { Type } from '@sinclair/typebox';

export const LogConfig = Type.Object({
  env: Type.String({ description: 'Every search is limited to env:<ENV>' }),
  site: Type.String(),
  configured: Type.Boolean({ description: 'Whether DD_API_KEY and DD_APP_KEY are set' }),
  facets: Type.Union([Type.Literal('file'), Type.Literal('built_in')]),
});

export const LogSearchQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({ maxLength: 2000, description: 'Datadog search syntax; sent as env:<ENV> (<query>)' }),
    ),
    from: Type.String({ default: 'now-15m', maxLength: 64 }),
    to: Type.String({ default: 'now', maxLength: 64 }),
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
    cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const LogRow = Type.Object({
  id: Type.String(),
  timestamp: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.String(), Type.Null()]),
  service: Type.Union([Type.String(), Type.Null()]),
  host: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  attributes: Type.Record(Type.String(), Type.Unknown()),
});

export const LogPage = Type.Object({
  query: Type.String({ description: 'The query Datadog received' }),
  rows: Type.Array(LogRow),
  next: Type.Union([Type.String(), Type.Null()], { description: 'Pass back as cursor for the next page' }),
});

export const Facet = Type.Object({ facet: Type.String(), label: Type.String() });
