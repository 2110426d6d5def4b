import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { OUTPUT_PAGE, OUTPUT_STATUSES } from '../domain/outputs.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

const StatusName = Type.Union(
  OUTPUT_STATUSES.map((s) => Type.Literal(s)),
  { description: 'active (the current version of its slug) or superseded' },
);

const Slug = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'The artifact’s name on the project: 1 to 120 lowercase letters, digits, dots, dashes or underscores (422 invalid_slug)',
});
const Title = Type.String({ maxLength: 1000, description: 'Trimmed; at most 200 characters; default empty' });
const ContentType = Type.String({ maxLength: 255, description: 'A media type; default text/plain; charset=utf-8' });

/** A saved output as lists show it (without its body). */
export const Output = Type.Object({
  id: Uuid,
  project_id: Uuid,
  conversation_id: Type.Union([Uuid, Type.Null()], {
    description: 'The conversation it was saved from; null when saved on the project',
  }),
  slug: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  sha256: Type.String({ description: 'Lowercase hex SHA-256 of the bytes' }),
  status: StatusName,
  title: Type.String(),
  content_type: Type.String(),
  size_bytes: Type.Integer({ minimum: 0 }),
  document_id: Type.Union([Uuid, Type.Null()], {
    description: 'The documents-service record of an uploaded output; null when inline',
  }),
  filename: Type.Union([Type.String(), Type.Null()]),
  saved_by: PrincipalId,
  created_at: Timestamp,
  superseded_at: Type.Union([Timestamp, Type.Null()]),
});
export type Output = Static<typeof Output>;

/** One output read by id: with its inline body (null for an uploaded one; read it from documents). */
export const OutputWithBody = Type.Object({
  ...Output.properties,
  body: Type.Union([Type.String(), Type.Null()]),
});
export type OutputWithBody = Static<typeof OutputWithBody>;

const inputFields = {
  slug: Slug,
  body: Type.String({ description: 'The artifact as UTF-8 text, at most 256 KiB (413 inline_body_too_large)' }),
  title: Type.Optional(Title),
  content_type: Type.Optional(ContentType),
};

export const ConversationOutputInput = Type.Object(
  {
    ...inputFields,
    /** Required while the conversation is unfiled (422 project_id_required). */
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type ConversationOutputInput = Static<typeof ConversationOutputInput>;

export const ProjectOutputInput = Type.Object(inputFields, { additionalProperties: false });
export type ProjectOutputInput = Static<typeof ProjectOutputInput>;

export const OutputListQuery = Type.Object(
  {
    ...pageQuery(OUTPUT_PAGE),
    status: Type.Optional(
      Type.Union([...OUTPUT_STATUSES.map((s) => Type.Literal(s)), Type.Literal('all')], {
        description: 'Default active; superseded or all to see older versions',
      }),
    ),
    slug: Type.Optional(Slug),
  },
  { additionalProperties: false },
);

export const OutputParams = Type.Object({ id: Uuid });
export const OutputReadQuery = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, description: 'Another version of the same slug' })) },
  { additionalProperties: false },
);

export const UploadInput = Type.Object(
  {
    slug: Slug,
    filename: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Safe filename with an extension (the documents service checks it)',
    }),
    title: Type.Optional(Title),
    content_type: Type.Optional(ContentType),
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type UploadInput = Static<typeof UploadInput>;

export const OutputUpload = Type.Object({
  id: Uuid,
  project_id: Uuid,
  conversation_id: Uuid,
  slug: Type.String(),
  title: Type.String(),
  filename: Type.String(),
  content_type: Type.String(),
  blob_name: Type.String(),
  created_by: PrincipalId,
  created_at: Timestamp,
  expires_at: Timestamp,
  output_id: Type.Union([Uuid, Type.Null()]),
  finalized_at: Type.Union([Timestamp, Type.Null()]),
});
export type OutputUpload = Static<typeof OutputUpload>;

/** The upload step's answer: where to PUT the bytes, then finalize with upload id and sha256. */
export const UploadTicket = Type.Object({
  ...OutputUpload.properties,
  upload_url: Type.String({ description: 'A write-only URL for the one blob (PUT with x-ms-blob-type: BlockBlob)' }),
  upload_url_expires_at: Timestamp,
  upload_method: Type.Literal('PUT'),
  upload_headers: Type.Record(Type.String(), Type.String()),
});
export type UploadTicket = Static<typeof UploadTicket>;

export const FinalizeInput = Type.Object(
  {
    upload_id: Uuid,
    sha256: Type.String({
      description: 'Lowercase hex SHA-256 of the bytes uploaded (422 sha256_mismatch when they differ)',
    }),
  },
  { additionalProperties: false },
);
export type FinalizeInput = Static<typeof FinalizeInput>;
