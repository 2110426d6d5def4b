import { cursorQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { AUDIT_PAGE } from '../domain/audit.ts';

/** One row of the workspace audit log (GET /v1/audit). */
export const AuditRow = Type.Object(
  {
    id: Type.String({ description: 'The row (a growing number, as a string)' }),
    event_id: Type.String({ format: 'uuid', description: 'The event this row records; one row per event' }),
    domain: Type.String({
      description: 'The topic it came from: project, conversation, evidence, fact, file, notification, or knowledge',
    }),
    type: Type.String({ description: 'The event type, e.g. project.item_created' }),
    source: Type.String({ description: 'The publishing service: workspace, or intelligence (knowledge queue)' }),
    actor: Type.Union([Type.String(), Type.Null()], { description: 'Who acted, when the event names them' }),
    project_id: Type.Union([Type.String(), Type.Null()]),
    summary: Type.String({ description: 'One human-readable line: what happened, by whom, to which ids' }),
    occurred_at: Type.String({ format: 'date-time' }),
    recorded_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type AuditRow = Static<typeof AuditRow>;

export const AuditListQuery = Type.Object(
  {
    ...cursorQuery({ limit: AUDIT_PAGE.pageSize, maxLimit: AUDIT_PAGE.maxPageSize }),
    domain: Type.Optional(
      Type.Union(
        ['project', 'conversation', 'evidence', 'fact', 'file', 'notification', 'knowledge'].map((d) =>
          Type.Literal(d),
        ),
        { description: 'Only rows of this domain' },
      ),
    ),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only rows of this event type' })),
    since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only events that occurred at or after this' }),
    ),
    project_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only events about this project' })),
  },
  { additionalProperties: false },
);
