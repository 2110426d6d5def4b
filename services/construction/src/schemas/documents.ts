import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { DOCUMENT_PAGE, LINK_TARGETS, REVISION_ACTIONS, REVISION_STATES } from '../domain/documents.ts';
import { STAGES } from '../domain/health.ts';

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Enum = <T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

export const DocumentInput = Type.Object(
  {
    code: Text(64),
    title: Text(300),
    doc_type: Text(64),
    discipline: Text(64),
    owner_fid: Type.Optional(Nullable(Text(200))),
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type DocumentInput = Static<typeof DocumentInput>;

export const DocumentChange = Type.Object(
  {
    code: Type.Optional(Text(64)),
    title: Type.Optional(Text(300)),
    doc_type: Type.Optional(Text(64)),
    discipline: Type.Optional(Text(64)),
    owner_fid: Type.Optional(Nullable(Text(200))),
  },
  { additionalProperties: false },
);
export type DocumentChange = Static<typeof DocumentChange>;

export const DocumentListQuery = Type.Object(
  {
    doc_type: Type.Optional(Type.String({ maxLength: 64 })),
    discipline: Type.Optional(Type.String({ maxLength: 64 })),
    owner_fid: Type.Optional(Type.String({ maxLength: 200 })),
    project_id: Type.Optional(Uuid),
    published: Type.Optional(Type.Boolean({ description: 'true: has a published revision; false: has none' })),
    search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the code or the title, any case' })),
    ...pageQuery(DOCUMENT_PAGE),
  },
  { additionalProperties: false },
);
export type DocumentListQuery = Static<typeof DocumentListQuery>;

export const Document = Type.Object({
  id: Uuid,
  code: Type.String(),
  title: Type.String(),
  doc_type: Type.String(),
  discipline: Type.String(),
  owner_fid: Nullable(Type.String()),
  current_number: Nullable(
    Type.Integer({ description: 'The latest published revision number; null before the first' }),
  ),
  published: Type.Boolean(),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Document = Static<typeof Document>;

export const Revision = Type.Object({
  id: Uuid,
  document_id: Uuid,
  letter: Type.String(),
  number: Nullable(Type.Integer()),
  state: Enum(REVISION_STATES),
  based_on_number: Nullable(Type.Integer()),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  published_at: Nullable(Timestamp),
});
export type Revision = Static<typeof Revision>;

export const TrailEntry = Type.Object({
  id: Uuid,
  revision_id: Nullable(Uuid),
  action: Type.String(),
  from_state: Nullable(Type.String()),
  to_state: Nullable(Type.String()),
  note: Nullable(Type.String()),
  actor_fid: Type.String(),
  at: Timestamp,
});
export type TrailEntry = Static<typeof TrailEntry>;

export const Link = Type.Object({
  id: Uuid,
  document_id: Uuid,
  target_type: Enum(LINK_TARGETS),
  target_id: Type.String(),
  stage: Nullable(Type.String()),
  project_id: Nullable(Uuid),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Link = Static<typeof Link>;

export const Impact = Type.Object({
  id: Uuid,
  revision_id: Uuid,
  number: Type.Integer(),
  summary: Type.String(),
  cost_minor: Nullable(Type.Integer()),
  days: Nullable(Type.Integer()),
  variation_id: Nullable(Uuid),
  recorded_by: Type.String(),
  created_at: Timestamp,
});
export type Impact = Static<typeof Impact>;

export const DocumentDetail = Type.Composite([
  Document,
  Type.Object({
    revisions: Type.Array(Revision),
    trail: Type.Array(TrailEntry),
    links: Type.Array(Link),
    impacts: Type.Array(Impact),
  }),
]);
export type DocumentDetail = Static<typeof DocumentDetail>;

export const RevisionInput = Type.Object(
  { straight_to_review: Type.Optional(Type.Boolean({ description: 'true: starts in internal_review' })) },
  { additionalProperties: false },
);
export type RevisionInput = Static<typeof RevisionInput>;

export const RevisionActionInput = Type.Object(
  { action: Enum(REVISION_ACTIONS), note: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
export type RevisionActionInput = Static<typeof RevisionActionInput>;

export const PublishInput = Type.Object(
  {
    impact: Type.Optional(
      Type.Object(
        {
          summary: Type.String({ maxLength: 2000 }),
          cost_minor: Type.Optional(Type.Integer()),
          days: Type.Optional(Type.Integer()),
        },
        { additionalProperties: false },
      ),
    ),
    draft_variation: Type.Optional(
      Type.Object(
        { title: Text(300), description: Type.Optional(Type.String({ maxLength: 10_000 })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PublishInput = Static<typeof PublishInput>;

export const Published = Type.Composite([Revision, Type.Object({ impact: Impact, variation_id: Nullable(Uuid) })]);
export type Published = Static<typeof Published>;

export const LinkInput = Type.Object(
  {
    target_type: Enum(LINK_TARGETS),
    target_id: Type.String({ minLength: 1, maxLength: 200 }),
    stage: Type.Optional(Enum(STAGES)),
  },
  { additionalProperties: false },
);
export type LinkInput = Static<typeof LinkInput>;

export const RevisionParams = Type.Object({ id: Uuid });
export const LinkParams = Type.Object({ id: Uuid, linkId: Uuid });
