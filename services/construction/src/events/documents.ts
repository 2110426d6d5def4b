import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Events of document control and attachments (ids and short values, never emails or names). */
export const DOCUMENT_EVENTS = {
  'document.registered': {
    description: 'A document was registered (linked to project_id at once when given)',
    payload: Type.Object({
      document_id: Uuid,
      code: Type.String(),
      project_id: Nullable(Uuid),
      actor_fid: Type.String(),
    }),
  },
  'document.updated': {
    description: "A document's register fields changed (their names)",
    payload: Type.Object({ document_id: Uuid, fields: Type.Array(Type.String()), actor_fid: Type.String() }),
  },
  'document.revision_started': {
    description: 'An internal revision was started (draft, or straight into internal review)',
    payload: Type.Object({
      document_id: Uuid,
      revision_id: Uuid,
      letter: Type.String(),
      state: Type.String(),
      actor_fid: Type.String(),
    }),
  },
  'document.revision_moved': {
    description: 'A revision took an action: prepared, reviewed, submitted_for_approval, approved or rejected',
    payload: Type.Object({
      document_id: Uuid,
      revision_id: Uuid,
      action: Type.String(),
      from_state: Type.String(),
      to_state: Type.String(),
      actor_fid: Type.String(),
    }),
  },
  'document.revision_published': {
    description: 'An approved revision was published as the next number (variation_id: the variation drafted with it)',
    payload: Type.Object({
      document_id: Uuid,
      revision_id: Uuid,
      number: Type.Integer(),
      variation_id: Nullable(Uuid),
      actor_fid: Type.String(),
    }),
  },
  'document.linked': {
    description: 'A document was linked to a project, stage, task, milestone or firm',
    payload: Type.Object({
      document_id: Uuid,
      link_id: Uuid,
      target_type: Type.String(),
      target_id: Type.String(),
      actor_fid: Type.String(),
    }),
  },
  'document.unlinked': {
    description: 'A link of a document was removed',
    payload: Type.Object({ document_id: Uuid, link_id: Uuid, target_type: Type.String(), actor_fid: Type.String() }),
  },
  'attachment.added': {
    description: 'A file stored in the documents service was attached to a task or a document revision',
    payload: Type.Object({
      attachment_id: Uuid,
      record_type: Type.String(),
      record_id: Uuid,
      document_id: Type.String(),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
