import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { PRESENTATION_PAGE, REVISION_ORIGINS, REVISION_STATUSES } from '../domain/presentations.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

const OutlineEntry = Type.Object(
  {
    title: Type.String({ maxLength: 1000, description: 'What the slide is about: 1 to 200 characters trimmed' }),
    notes: Type.Optional(Type.String({ maxLength: 10_000, description: 'Points for the model; at most 4,000' })),
  },
  { additionalProperties: false },
);
const Source = Type.Object(
  {
    title: Type.String({ maxLength: 1000, description: '1 to 200 characters trimmed' }),
    reference: Type.String({ maxLength: 5000, description: 'A URL or outside id: 1 to 2,000, no spaces' }),
  },
  { additionalProperties: false },
);
const Slide = Type.Object(
  {
    title: Type.String({ maxLength: 1000, description: '1 to 200 characters trimmed' }),
    body: Type.String({
      maxLength: 10_000,
      description: 'The slide’s text; at most 4,000; blank lines part paragraphs',
    }),
  },
  { additionalProperties: false },
);

export const Revision = Type.Object({
  presentation_id: Uuid,
  revision: Type.Integer({ minimum: 1 }),
  origin: Type.Union(
    REVISION_ORIGINS.map((o) => Type.Literal(o)),
    { description: 'build: the model wrote the slides from the outline; edit: an editor gave them' },
  ),
  status: Type.Union(
    REVISION_STATUSES.map((s) => Type.Literal(s)),
    { description: 'rendered (its file is stored) or failed (failure_reason says why; resume renders it again)' },
  ),
  slides: Type.Union([Type.Array(Slide), Type.Null()], {
    description: 'null when a build failed before the model wrote them',
  }),
  failure_reason: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer({ minimum: 1, description: 'Renders tried: 1, plus one per resume' }),
  document_id: Type.Union([Uuid, Type.Null()], { description: 'The rendered file in the documents service' }),
  content_type: Type.Union([Type.String(), Type.Null()]),
  size_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  sha256: Type.Union([Type.String(), Type.Null()]),
  shared: Type.Boolean({ description: 'This is the revision the latest share pinned' }),
  created_by: PrincipalId,
  created_at: Timestamp,
  rendered_at: Type.Union([Timestamp, Type.Null()]),
});
export type Revision = Static<typeof Revision>;

export const Presentation = Type.Object({
  id: Uuid,
  project_id: Uuid,
  title: Type.String(),
  outline: Type.Array(Type.Object({ title: Type.String(), notes: Type.String() })),
  sources: Type.Array(Type.Object({ title: Type.String(), reference: Type.String() })),
  latest_revision: Type.Integer({ minimum: 0, description: '0 before the first build or edit' }),
  shared_revision: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  shared_by: Type.Union([PrincipalId, Type.Null()]),
  shared_at: Type.Union([Timestamp, Type.Null()]),
  share_id: Type.Union([Type.String(), Type.Null()], { description: 'The communications service’s id of the share' }),
  created_by: PrincipalId,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Presentation = Static<typeof Presentation>;

/** One presentation read by id: with every revision, newest first. */
export const PresentationWithRevisions = Type.Object({
  ...Presentation.properties,
  revisions: Type.Array(Revision),
});
export type PresentationWithRevisions = Static<typeof PresentationWithRevisions>;

export const PresentationInput = Type.Object(
  {
    title: Type.String({ maxLength: 1000, description: '1 to 200 characters trimmed' }),
    outline: Type.Array(OutlineEntry, { maxItems: 100, description: '1 to 20 slides' }),
    sources: Type.Optional(Type.Array(Source, { maxItems: 200, description: 'At most 50' })),
  },
  { additionalProperties: false },
);
export type PresentationInput = Static<typeof PresentationInput>;

export const EditInput = Type.Object(
  { slides: Type.Array(Slide, { maxItems: 100, description: 'The new revision’s slides: 1 to 20, in order' }) },
  { additionalProperties: false },
);
export type EditInput = Static<typeof EditInput>;

export const ShareInput = Type.Object(
  {
    revision: Type.Optional(Type.Integer({ minimum: 1, description: 'Default: the latest rendered revision' })),
    recipients: Type.Array(Type.String({ maxLength: 400 }), {
      maxItems: 200,
      description: '1 to 50 email addresses the communications service sends the revision to',
    }),
    message: Type.Optional(Type.String({ maxLength: 10_000, description: 'At most 2,000 characters' })),
  },
  { additionalProperties: false },
);
export type ShareInput = Static<typeof ShareInput>;

export const EmptyInput = Type.Object({}, { additionalProperties: false });

export const PresentationParams = Type.Object({ id: Uuid, presentationId: Uuid });
export const PresentationListQuery = Type.Object({ ...pageQuery(PRESENTATION_PAGE) }, { additionalProperties: false });
export const FileQuery = Type.Object(
  {
    revision: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Default: the shared revision, else the latest rendered one' }),
    ),
  },
  { additionalProperties: false },
);
