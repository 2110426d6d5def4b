import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';

export const VISIBILITIES = ['private', 'public'] as const;
export const Visibility = Type.Union([Type.Literal('private'), Type.Literal('public')]);

/** A filename as sent; whether it is safe and has an extension is a domain rule (422 with its own code). */
export const Filename = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'At most 255 characters, with an extension of 1-16 letters or digits; safe: no path separators, control, ' +
    'format or line-separator characters, none of < > : " | ? *, no leading dot, no "..", no leading or trailing ' +
    'blanks, no trailing dot, not a Windows device name (422 unsafe_filename or filename_extension_required)',
});
/**
 * An identifier-like string (ref_type, ref_id, ref_category, meta_name): one line, no leading or
 * trailing blanks, no control characters, so that "P-1" and "P-1 " are never two references.
 */
const NAME_PATTERN =
  '^[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]*[^\\s\\x00-\\x1f\\x7f-\\x9f])?$';
const Name = (max: number) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: NAME_PATTERN,
    description: 'One line: no leading or trailing blanks, no control characters',
  });

export const Reference = Type.Object(
  {
    ref_type: Name(100),
    ref_id: Name(200),
    ref_category: Name(100),
    is_external: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type Reference = Static<typeof Reference>;

export const MetadataItem = Type.Object(
  { meta_name: Name(200), meta_value: Type.String({ maxLength: 4000 }) },
  { additionalProperties: false },
);
export type MetadataItem = Static<typeof MetadataItem>;

export const References = Type.Array(Reference, { maxItems: 100 });
export const Metadata = Type.Array(MetadataItem, { maxItems: 100 });

const StorageAccountName = Type.String({ minLength: 1, maxLength: 63 });
const ContainerName = Type.String({ minLength: 1, maxLength: 63 });
const BlobName = Type.String({ minLength: 1, maxLength: 1024 });
const ContentType = Type.String({
  minLength: 3,
  maxLength: 255,
  // Parameters are printable ASCII: no line break or control character can reach a header.
  pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \\t]*;[\\t\\x20-\\x7e]*)?$",
  description: 'A media type with optional parameters in printable ASCII, e.g. application/pdf',
});
const ContentHash = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: "The uploader's lowercase hex SHA-256 of the bytes; stored as claimed, not verified",
});

/** POST /v1/documents/sas: a bare body (not a command). */
export const SasRequest = Type.Object(
  {
    filename: Filename,
    visibility: Visibility,
    storage_account: StorageAccountName,
    container: Type.Optional(ContainerName),
    ttl_seconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Over 24 hours is shortened to 24 hours' }),
    ),
    blob_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'An earlier blob_name: signs the same blob again (renewal)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SasRequest = Static<typeof SasRequest>;

export const SasResponse = Type.Object({
  sas_url: Type.String(),
  sas_expires_at: Timestamp,
  storage_account: Type.String(),
  visibility: Visibility,
  container: Type.String(),
  blob_name: Type.String(),
  filename: Type.String(),
});
export type SasResponse = Static<typeof SasResponse>;

/** POST /v1/documents: data of the registration command. byte_size is observed, never accepted. */
export const RegistrationInput = Type.Object(
  {
    filename: Filename,
    visibility: Visibility,
    storage_account: StorageAccountName,
    container: ContainerName,
    blob_name: BlobName,
    content_type: ContentType,
    content_hash: Type.Optional(ContentHash),
    references: References,
    metadata: Metadata,
  },
  { additionalProperties: false },
);
export type RegistrationInput = Static<typeof RegistrationInput>;

/**
 * POST /v1/documents/{id}: data of the update command. references and metadata replace the
 * whole set when given and stay as they are when omitted; the storage location is not accepted.
 */
export const UpdateInput = Type.Object(
  {
    filename: Type.Optional(Filename),
    references: Type.Optional(References),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type UpdateInput = Static<typeof UpdateInput>;

export const Document = Type.Object({
  id: Uuid,
  filename: Type.String(),
  visibility: Visibility,
  storage_account: Type.String(),
  container: Type.String(),
  blob_name: Type.String(),
  content_type: Type.String(),
  content_hash: Type.Union([Type.String(), Type.Null()]),
  byte_size: Type.Integer({ minimum: 0 }),
  references: Type.Array(Reference),
  metadata: Type.Array(MetadataItem),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Document = Static<typeof Document>;

/** The single read: the record plus a read SAS signed at this read. */
export const DocumentWithSas = Type.Object({
  ...Document.properties,
  sas_url: Type.String(),
  sas_expires_at: Timestamp,
});

const TrueFalse = (description: string) => Type.Union([Type.Literal('true'), Type.Literal('false')], { description });

export const PAGE = { pageSize: 25, maxPageSize: 100 };

export const ListQuery = Type.Object(
  {
    ...pageQuery(PAGE),
    ref_type: Type.Optional(Name(100)),
    ref_id: Type.Optional(Name(200)),
    ref_category: Type.Optional(Name(100)),
    is_external: Type.Optional(TrueFalse('true or false; absent means either')),
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuery>;

/** The selection shared by readable and uploaded-count. */
const selection = {
  all: Type.Optional(TrueFalse('true: every project and unfiled file')),
  project_ids: Type.Optional(
    Type.String({ maxLength: 8000, description: 'Comma-separated project ids (at most 100)' }),
  ),
  owner: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Owner of unfiled files' })),
};

export const ReadableQuery = Type.Object(
  {
    ...pageQuery(PAGE),
    ...selection,
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Matches filename or uploader' })),
  },
  { additionalProperties: false },
);
export type ReadableQuery = Static<typeof ReadableQuery>;

export const UploadedCountQuery = Type.Object(selection, { additionalProperties: false });
export type UploadedCountQuery = Static<typeof UploadedCountQuery>;

export const UploadedCount = Type.Object({ count: Type.Integer({ minimum: 0 }) });
