/**
 * The merged platform AsyncAPI 3 document (issue 15.2): every event every service declares
 * (services/<svc>/src/events.ts), one channel per bus subject, the public `<service>.<type>` and,
 * for an event carrying personal data, the restricted `restricted.<service>.<type>`. Each message
 * is the outbox envelope {id, type, source, occurred_at, data} around the declared payload. The
 * catalogues are data, so nothing has to run to write it.
 */

import { events as accounting } from '@platform/accounting/events';
import { events as agents } from '@platform/agents/events';
import { events as broker } from '@platform/broker/events';
import { events as construction } from '@platform/construction/events';
import { events as documents } from '@platform/documents/events';
import { events as identity } from '@platform/identity/events';
import { type EventCatalogue, subjectsOf } from '@platform/kit';
import { events as vendors } from '@platform/vendors/events';
import { events as workspace } from '@platform/workspace/events';

type Json = Record<string, unknown>;

/** Every service's catalogue, in the order of the document. */
export const CATALOGUES: readonly EventCatalogue[] = [
  identity,
  accounting,
  vendors,
  documents,
  workspace,
  broker,
  construction,
  agents,
];

/** A TypeBox schema as plain JSON Schema (TypeBox's symbol keys dropped). */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Json;

/** The outbox envelope of one event type around its data. */
function envelope(service: string, type: string, data: unknown): Json {
  return {
    type: 'object',
    required: ['id', 'type', 'source', 'occurred_at', 'data'],
    properties: {
      id: { type: 'string', description: 'UUIDv7; the bus drops a duplicate id (delivery is at least once)' },
      type: { type: 'string', const: type },
      source: { type: 'string', const: service },
      occurred_at: { type: 'string', format: 'date-time', description: "The command's clock reading" },
      data: plain(data),
    },
  };
}

export function platformAsyncApi(catalogues: readonly EventCatalogue[] = CATALOGUES, version = '1.0.0'): Json {
  const channels: Json = {};
  const operations: Json = {};
  const messages: Json = {};
  const tags: { name: string; description: string }[] = [
    {
      name: 'personal-data',
      description: 'Carries personal data: published only on the restricted subject, for consumers allowed to read it',
    },
  ];
  for (const catalogue of catalogues) {
    const { service } = catalogue;
    tags.push({ name: service, description: `Events the ${service} service publishes` });
    for (const [type, spec] of Object.entries(catalogue.events)) {
      for (const { subject, personal } of subjectsOf(catalogue, type)) {
        const data = personal ? spec.personal : spec.payload;
        const messageId = subject;
        messages[messageId] = {
          name: type,
          title: `${service} ${type}${personal ? ' (restricted)' : ''}`,
          summary: spec.description,
          contentType: 'application/json',
          tags: personal ? [{ name: service }, { name: 'personal-data' }] : [{ name: service }],
          'x-personal-data': personal,
          payload: envelope(service, type, data),
        };
        channels[subject] = {
          address: subject,
          title: subject,
          description: personal ? `${spec.description}. Personal data: the restricted subject only.` : spec.description,
          messages: { [type]: { $ref: `#/components/messages/${messageId}` } },
        };
        operations[`${subject}.send`] = {
          action: 'send',
          title: `${service} publishes ${type}${personal ? ' (restricted)' : ''}`,
          channel: { $ref: `#/channels/${subject}` },
          messages: [{ $ref: `#/channels/${subject}/messages/${type}` }],
        };
      }
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Platform events',
      version,
      tags,
      description:
        "Every event the platform's services publish through their outboxes onto the bus. Generated from each " +
        "service's declared catalogue (services/<svc>/src/events.ts) by `npm run asyncapi`; do not edit. A subject " +
        'is `<service>.<type>`; an event with personal data goes to `restricted.<service>.<type>` instead of (or, ' +
        'for its personal part, besides) the public one.',
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { messages },
  };
}
