import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { ADOPTION_PAGE, UPLOAD_PURPOSES } from '../domain/recorder-files.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

/** POST /v1/recorder/user-token: the token for the recorder app (shown once; a replay answers without it). */
export const RecorderToken = Type.Object({
  token: Type.Optional(
    Type.String({ description: "The recorder service's user token; in the minting response only, never on a replay" }),
  ),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds the token is valid: 3600' }),
  expires_at: Timestamp,
  person_id: PrincipalId,
  sign_in_day: Type.String({ format: 'date', description: 'The UTC day this mint counts as a sign-in on' }),
  first_sign_in_today: Type.Boolean({ description: 'false when the person had already signed in this UTC day' }),
});
export type RecorderToken = Static<typeof RecorderToken>;

export const DeviceInput = Type.Object(
  {
    serial: Type.String({
      maxLength: 200,
      description: "The recorder's serial: 1 to 64 letters, digits, - or _ (trimmed; 422 invalid_serial)",
    }),
  },
  { additionalProperties: false },
);
export type DeviceInput = Static<typeof DeviceInput>;

export const Device = Type.Object({
  serial: Type.String(),
  person_id: PrincipalId,
  registered_at: Timestamp,
});
export type Device = Static<typeof Device>;

export const AdoptionQuery = Type.Object(
  {
    ...pageQuery(ADOPTION_PAGE),
    since: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Start of the window, included (a date or an ISO 8601 instant); default 30 days before until',
      }),
    ),
    until: Type.Optional(
      Type.String({ maxLength: 40, description: 'End of the window, excluded (a date or instant); default now' }),
    ),
  },
  { additionalProperties: false },
);
export type AdoptionQuery = Static<typeof AdoptionQuery>;

export const Adoption = Type.Object({
  person_id: PrincipalId,
  sign_in_days: Type.Integer({ description: 'UTC days in the window with a recorder sign-in (a token minted)' }),
  uploaded_recordings: Type.Integer({
    description: 'Recordings (evidence of source recorder or phone) the person opened in the window',
  }),
});
export type Adoption = Static<typeof Adoption>;

const Purpose = Type.Union(
  UPLOAD_PURPOSES.map((p) => Type.Literal(p)),
  { description: 'file (default), recording, or live_recording (the write URL is valid six hours)' },
);

export const UploadUrlInput = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255, description: 'With an extension, e.g. meeting.m4a' }),
    purpose: Type.Optional(Purpose),
    content_type: Type.Optional(
      Type.String({ minLength: 3, maxLength: 255, description: 'Default application/octet-stream' }),
    ),
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type UploadUrlInput = Static<typeof UploadUrlInput>;

export const UploadRef = Type.Object({ upload_id: Uuid }, { additionalProperties: false });
export type UploadRef = Static<typeof UploadRef>;

/** An upload as the file routes answer it (the write URL only on upload-url and renew). */
export const FileUpload = Type.Object({
  id: Uuid,
  purpose: Purpose,
  project_id: Type.Union([Uuid, Type.Null()]),
  filename: Type.String(),
  content_type: Type.String(),
  blob_name: Type.String(),
  expires_at: Timestamp,
  renewals: Type.Integer(),
  document_id: Type.Union([Type.String(), Type.Null()]),
  registered_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});
export type FileUpload = Static<typeof FileUpload>;

export const UploadUrl = Type.Object({
  ...FileUpload.properties,
  upload_url: Type.String({
    description: 'A write-only URL for the one blob: PUT it whole, or Put Block and Put Block List',
  }),
  upload_method: Type.Literal('PUT'),
  upload_headers: Type.Record(Type.String(), Type.String()),
  renew_at: Timestamp,
});
export type UploadUrl = Static<typeof UploadUrl>;
