import { AppError, Envelope } from '@platform/kit';
import { BusView, MessageParams, MessageView } from '../schemas/bus.ts';
import { P, ScopeParams } from '../schemas/common.ts';
import { type Routes, route } from './deps.ts';

const tags = ['bus'];

const unavailable = (key: string, e: unknown) =>
  e instanceof AppError
    ? e
    : new AppError(503, 'scope_unavailable', `${key}'s bus does not answer: ${(e as Error).message}`);

export const BUS_ROUTES: Routes = [
  route({
    method: 'GET',
    url: `${P}/bus`,
    role: 'viewer',
    tags,
    summary:
      "The subscription's bus: JetStream's streams and consumers (messages, pending, unacknowledged), or the in-process bus's log and subscriptions",
    params: ScopeParams,
    response: Envelope(BusView),
    errors: ['scope_not_found', 'bus_not_configured', 'scope_unavailable'],
    handler: async ({ params, reply }, deps) => {
      const scope = deps.registry.resolve(params.region, params.subscription);
      const bus = await deps.buses.of(scope);
      try {
        const [streams, consumers] = await Promise.all([bus.inspector.streams(), bus.inspector.consumers()]);
        return reply.envelope({ kind: bus.kind, streams, consumers });
      } catch (e) {
        throw unavailable(scope.key, e);
      }
    },
  }),
  route({
    method: 'GET',
    url: `${P}/bus/:stream/messages/:seq`,
    role: 'viewer',
    tags,
    summary:
      'Peek at one message by stream and sequence (a direct get: no consumer, so it stays on the stream and nobody’s pending count moves)',
    params: MessageParams,
    response: Envelope(MessageView),
    errors: ['scope_not_found', 'bus_not_configured', 'scope_unavailable', 'stream_not_found', 'message_not_found'],
    handler: async ({ params, reply }, deps) => {
      const scope = deps.registry.resolve(params.region, params.subscription);
      const bus = await deps.buses.of(scope);
      let m: Awaited<ReturnType<typeof bus.inspector.message>>;
      try {
        m = await bus.inspector.message(params.stream, params.seq);
      } catch (e) {
        if (/stream not found/i.test((e as Error).message))
          throw new AppError(404, 'stream_not_found', `No stream ${params.stream} on the bus`);
        throw unavailable(scope.key, e);
      }
      if (!m) throw new AppError(404, 'message_not_found', `No message ${params.seq} in ${params.stream}`);
      return reply.envelope(m);
    },
  }),
];
