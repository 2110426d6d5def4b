import { Type } from '@sinclair/typebox';
import { ScopeParams } from './common.ts';

export const StreamView = Type.Object({
  name: Type.String(),
  subjects: Type.Array(Type.String()),
  messages: Type.Integer(),
  bytes: Type.Integer(),
  first_seq: Type.Integer(),
  last_seq: Type.Integer(),
  consumer_count: Type.Integer(),
});

export const ConsumerView = Type.Object({
  stream: Type.String(),
  name: Type.String(),
  filter: Type.String(),
  pending: Type.Integer({ description: 'Not yet delivered to it' }),
  ack_pending: Type.Integer({ description: 'Delivered, not yet acknowledged' }),
  redelivered: Type.Integer(),
  ack_wait_ms: Type.Number(),
  active: Type.Boolean(),
});

export const BusView = Type.Object({
  kind: Type.Union([Type.Literal('jetstream'), Type.Literal('in-process')]),
  streams: Type.Array(StreamView),
  consumers: Type.Array(ConsumerView),
});

export const MessageParams = Type.Object({
  ...ScopeParams.properties,
  stream: Type.String({ pattern: '^[A-Za-z0-9_-]{1,255}$' }),
  seq: Type.Integer({ minimum: 1 }),
});

export const MessageView = Type.Object({
  stream: Type.String(),
  seq: Type.Integer(),
  subject: Type.String(),
  id: Type.Union([Type.String(), Type.Null()], { description: 'The id the bus deduplicates by' }),
  time: Type.Union([Type.String(), Type.Null()]),
  data: Type.Unknown(),
});
