import { type Static, Type } from '@sinclair/typebox';
import { type GoogleAnswer, type GoogleOptions, googleBytes, googleJson } from './google.ts';

/**
 * The Google Drive API v3 (DRIVE_API_URL, default https://www.googleapis.com), as the file-drive
 * importer reads it: changes.getStartPageToken (the cursor to start from), files.list with a query
 * (the first pass's window), changes.list from a page token (every later pass), files.get
 * alt=media (a stored file's bytes) and files.export (a Google Docs editors file as text). Each
 * list is one page; the importer follows nextPageToken so that it records its cursor page by page.
 */

export const DriveFile = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    mimeType: Type.String(),
    modifiedTime: Type.String(),
    version: Type.Optional(Type.String()),
    trashed: Type.Optional(Type.Boolean()),
    size: Type.Optional(Type.String()),
    webViewLink: Type.Optional(Type.String()),
    owners: Type.Optional(
      Type.Array(Type.Object({ emailAddress: Type.Optional(Type.String()) }, { additionalProperties: true })),
    ),
  },
  { additionalProperties: true },
);
export type DriveFile = Static<typeof DriveFile>;

export const DriveFileList = Type.Object(
  { files: Type.Array(DriveFile), nextPageToken: Type.Optional(Type.String()) },
  { additionalProperties: true },
);
export type DriveFileList = Static<typeof DriveFileList>;

export const DriveChangeList = Type.Object(
  {
    changes: Type.Array(
      Type.Object(
        {
          changeType: Type.Optional(Type.String()),
          removed: Type.Optional(Type.Boolean()),
          fileId: Type.Optional(Type.String()),
          file: Type.Optional(DriveFile),
          time: Type.Optional(Type.String()),
        },
        { additionalProperties: true },
      ),
    ),
    nextPageToken: Type.Optional(Type.String()),
    newStartPageToken: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type DriveChangeList = Static<typeof DriveChangeList>;

const StartToken = Type.Object({ startPageToken: Type.String() }, { additionalProperties: true });

export interface Drive {
  startPageToken(): Promise<GoogleAnswer<string>>;
  listFiles(q: string, pageToken?: string): Promise<GoogleAnswer<DriveFileList>>;
  listChanges(pageToken: string): Promise<GoogleAnswer<DriveChangeList>>;
  /** files.get alt=media: a stored (non-Google) file's bytes. */
  download(fileId: string, maxBytes: number): Promise<GoogleAnswer<Buffer>>;
  /** files.export: a Google Docs editors file in `mimeType`. */
  exportAs(fileId: string, mimeType: string, maxBytes: number): Promise<GoogleAnswer<Buffer>>;
}

export const DEFAULT_DRIVE_URL = 'https://www.googleapis.com';
const PAGE = 100;
const FILE_FIELDS = 'id,name,mimeType,modifiedTime,version,trashed,size,webViewLink,owners(emailAddress)';

export class HttpDrive implements Drive {
  constructor(private readonly o: GoogleOptions) {}

  async startPageToken() {
    const r = await googleJson(this.o, '/drive/v3/changes/startPageToken', StartToken);
    return r.ok ? { ok: true as const, data: r.data.startPageToken } : r;
  }

  listFiles(q: string, pageToken?: string) {
    const p = new URLSearchParams({
      q,
      pageSize: String(PAGE),
      orderBy: 'modifiedTime',
      fields: `nextPageToken,files(${FILE_FIELDS})`,
      ...(pageToken ? { pageToken } : {}),
    });
    return googleJson(this.o, `/drive/v3/files?${p}`, DriveFileList);
  }

  listChanges(pageToken: string) {
    const p = new URLSearchParams({
      pageToken,
      pageSize: String(PAGE),
      fields: `nextPageToken,newStartPageToken,changes(changeType,removed,fileId,time,file(${FILE_FIELDS}))`,
    });
    return googleJson(this.o, `/drive/v3/changes?${p}`, DriveChangeList);
  }

  download(fileId: string, maxBytes: number) {
    return googleBytes(this.o, `/drive/v3/files/${encodeURIComponent(fileId)}?alt=media`, maxBytes);
  }

  exportAs(fileId: string, mimeType: string, maxBytes: number) {
    const p = new URLSearchParams({ mimeType });
    return googleBytes(this.o, `/drive/v3/files/${encodeURIComponent(fileId)}/export?${p}`, maxBytes);
  }
}
