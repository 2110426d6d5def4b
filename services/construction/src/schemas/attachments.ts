import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { ATTACHMENT_RECORDS, DOCUMENT_PAGE } from '../domain/documents.ts';

const RecordType = Type.Unsafe<(typeof ATTACHMENT_RECORDS)[number]>({ type: 'string', enum: [...ATTACHMENT_RECORDS] });
const Filename = Type.String({ minLength: 1, maxLength: 255 });

export const UploadUrlInput = Type.Object(
  { filename: Filename, content_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
export type UploadUrlInput = Static<typeof UploadUrlInput>;

export const UploadUrl = Type.Object({
  blob_name: Type.String(),
  upload_url: Type.String({ description: 'PUT the bytes here with header x-ms-blob-type: BlockBlob' }),
  expires_at: Timestamp,
  upload_headers: Type.Object({ 'x-ms-blob-type': Type.Literal('BlockBlob') }),
});
export type UploadUrl = Static<typeof UploadUrl>;

export const AttachmentInput = Type.Object(
  {
    record_type: RecordType,
    record_id: Uuid,
    blob_name: Type.String({ minLength: 1, maxLength: 1024 }),
    filename: Filename,
    content_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type AttachmentInput = Static<typeof AttachmentInput>;

export const Attachment = Type.Object({
  id: Uuid,
  record_type: RecordType,
  record_id: Uuid,
  document_id: Type.String({ description: "The documents service's id of the file" }),
  blob_name: Type.String(),
  filename: Type.String(),
  content_type: Type.String(),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Attachment = Static<typeof Attachment>;

export const AttachmentListQuery = Type.Object(
  { record_type: RecordType, record_id: Uuid, ...pageQuery(DOCUMENT_PAGE) },
  { additionalProperties: false },
);
export type AttachmentListQuery = Static<typeof AttachmentListQuery>;

export const DownloadUrl = Type.Object({ url: Type.String(), expires_at: Timestamp });
export type DownloadUrl = Static<typeof DownloadUrl>;
