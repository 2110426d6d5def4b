import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { AUDITED_DOMAINS } from '../domain/audit.ts';
import { Enum } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const AUDIT_PAGE = { pageSize: 50, maxPageSize: 200 };

export const AuditRow = Type.Object({
  id: Uuid,
  event_type: Type.String({ description: 'The outbox event’s type, e.g. agent.started' }),
  domain: Enum(AUDITED_DOMAINS, 'The event type’s first part'),
  actor: Type.String({ description: 'Who acted: a FID, agent:<id> for an agent, or The service' }),
  entity: Type.String({ description: 'kind:id of the subject: agent:<id>, swarm:<id> or skill:<id>' }),
  agent_id: Nullable(Uuid),
  sentence: Type.String(),
  occurred_at: Timestamp,
  recorded_at: Timestamp,
});

export const AuditQuery = Type.Object(
  {
    domain: Type.Optional(Enum(AUDITED_DOMAINS)),
    event_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exactly this actor' })),
    entity: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Exactly this entity (agent:<id>…); no partial match' }),
    ),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Matches the sentence, type, actor or entity' }),
    ),
    ...pageQuery(AUDIT_PAGE),
  },
  { additionalProperties: false },
);

export const AuditIdParams = Type.Object({ id: Uuid });
