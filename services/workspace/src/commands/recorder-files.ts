import { AppError, type Principal, unprocessable, uuidv7 } from '@platform/kit';
import type { Documents, UploadUrl as SignedUrl } from '../clients/documents.ts';
import type { Recorder } from '../clients/recorder.ts';
import { documentsUnavailable } from '../domain/outputs.ts';
import {
  deviceTaken,
  fileDocumentsNotConfigured,
  fileUploadNotFound,
  notUploader,
  RECORDER_TOKEN_SECONDS,
  RENEW_BEFORE_MS,
  recorderNotConfigured,
  recorderSerial,
  recorderUnavailable,
  requireBlocksAlive,
  type UploadPurpose,
  uploadRegistered,
  uploadTtlSeconds,
  utcDay,
} from '../domain/recorder-files.ts';
import { requireActiveProject, requireRole } from '../domain/roles.ts';
import type { Device, FileUpload, RecorderToken, UploadUrl, UploadUrlInput } from '../schemas/recorder-files.ts';
import type { Db } from '../store/db.ts';
import { visibleProject } from '../store/projects.ts';
import {
  type FileUploadRecord,
  findDevice,
  findFileUpload,
  insertDevice,
  insertFileUpload,
  recordFileDocument,
  recordSignIn,
  renewFileUpload,
} from '../store/recorder-files.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * POST /v1/recorder/user-token: asks the partner for an hour-long user token for the caller
 * (WS-448) with the partner credential, which never leaves the client (WS-449); the successful
 * mint records the caller's UTC sign-in day, once a day (WS-450, WS-451). The token is returned
 * apart (`once`) so the stored command response never holds it.
 */
export async function mintRecorderToken(
  ctx: CommandCtx,
  recorder: Recorder | undefined,
): Promise<{ data: Omit<RecorderToken, 'token'>; once: { token: string } }> {
  if (!recorder) throw recorderNotConfigured();
  const { trx, principal, now } = ctx;
  const minted = await recorder.userToken(principal.id, RECORDER_TOKEN_SECONDS);
  if (!minted.ok) throw recorderUnavailable(minted.status, minted.code);
  const first = await recordSignIn(trx, principal.id, now);
  return {
    data: {
      token_type: 'Bearer',
      expires_in: minted.data.expires_in,
      expires_at: new Date(now.getTime() + minted.data.expires_in * 1000).toISOString(),
      person_id: principal.id,
      sign_in_day: utcDay(now),
      first_sign_in_today: first,
    },
    once: { token: minted.data.access_token },
  };
}

/**
 * POST /v1/recorder/devices: registers a recorder serial to the caller (WS-458), bound at the
 * partner to the caller's partner user. Already theirs: 200 with the registration; another
 * person's: 409 device_taken. 503 without the recorder settings (WS-459).
 */
export async function registerDevice(
  ctx: CommandCtx,
  recorder: Recorder | undefined,
  rawSerial: string,
): Promise<{ device: Device; created: boolean }> {
  if (!recorder) throw recorderNotConfigured();
  const { trx, principal, now } = ctx;
  const serial = recorderSerial(rawSerial);
  const held = await findDevice(trx, serial);
  if (held) {
    if (held.person_id !== principal.id) throw deviceTaken();
    return { device: held, created: false };
  }
  const bound = await recorder.bindDevice(principal.id, serial);
  if (!bound.ok) {
    if (bound.code === 'device_bound_elsewhere') throw deviceTaken();
    throw recorderUnavailable(bound.status, bound.code);
  }
  const device = await insertDevice(trx, serial, principal.id, now);
  if (device) return { device, created: true };
  // A concurrent registration of the same serial committed first.
  const winner = await findDevice(trx, serial);
  if (!winner || winner.person_id !== principal.id) throw deviceTaken();
  return { device: winner, created: false };
}

const fileUpload = (u: FileUploadRecord): FileUpload => ({
  id: u.id,
  purpose: u.purpose,
  project_id: u.project_id,
  filename: u.filename,
  content_type: u.content_type,
  blob_name: u.blob_name,
  expires_at: u.expires_at,
  renewals: u.renewals,
  document_id: u.document_id,
  registered_at: u.registered_at,
  created_at: u.created_at,
});

const withUrl = (u: FileUploadRecord, url: string): UploadUrl => ({
  ...fileUpload(u),
  upload_url: url,
  upload_method: 'PUT',
  upload_headers: { 'x-ms-blob-type': 'BlockBlob' },
  renew_at: new Date(new Date(u.expires_at).getTime() - RENEW_BEFORE_MS).toISOString(),
});

/** The documents service's refusal of a write URL as this route answers it. */
function urlRefused(r: { status: number; code: string; message: string }): never {
  if (r.code === 'blob_already_registered') throw uploadRegistered();
  if (r.status === 422) throw unprocessable('invalid_filename', r.message, 'body/data/filename');
  throw documentsUnavailable(`${r.code}: ${r.message}`);
}

/**
 * POST /v1/files/upload-url, before its transaction: a project's file needs an editor (WS-017; a
 * viewer is 403 and nothing is asked of the documents service: WS-018); then a write URL for a new
 * blob (WS-460), six hours for a live recording (WS-461), else the documents service's default.
 */
export async function signNewUpload(
  c: Caller,
  documents: Documents | undefined,
  input: UploadUrlInput,
): Promise<SignedUrl> {
  if (!documents) throw fileDocumentsNotConfigured();
  if (input.project_id !== undefined) {
    const found = await visibleProject(c.db, c.principal, c.asMember, input.project_id);
    requireRole(found.access, 'editor');
    requireActiveProject(found.project);
  }
  const url = await documents.uploadUrl(input.filename, { ttlSeconds: uploadTtlSeconds(input.purpose ?? 'file') });
  if (!url.ok) urlRefused(url);
  return url.data;
}

/** The upload-url transaction: the project rechecked for this write, the upload recorded (who, blob, purpose, expiry). */
export async function startFileUpload(ctx: CommandCtx, input: UploadUrlInput, signed: SignedUrl): Promise<UploadUrl> {
  const { trx, principal, now } = ctx;
  const purpose: UploadPurpose = input.purpose ?? 'file';
  if (input.project_id !== undefined) await projectForWrite(ctx, input.project_id, 'editor');
  const upload = await insertFileUpload(
    trx,
    {
      id: uuidv7(now.getTime()),
      requested_by: principal.id,
      project_id: input.project_id ?? null,
      purpose,
      filename: input.filename,
      content_type: input.content_type ?? 'application/octet-stream',
      storage_account: signed.storage_account,
      container: signed.container,
      blob_name: signed.blob_name,
      expires_at: signed.sas_expires_at,
    },
    now,
  );
  return withUrl(upload, signed.sas_url);
}

/** Who asks, as the checks before a transaction read them. */
export interface Caller {
  db: Db;
  principal: Principal;
  asMember: boolean;
  now: Date;
}

/**
 * The caller's own upload, still without a document: 404 file_upload_not_found, 403 not_uploader
 * (another principal), 409 upload_registered; with a project, the caller still its editor (403).
 * Read before the transaction (the documents call happens there) and again, locked, inside it.
 */
async function ownPendingUpload(
  c: { db: Db; principal: Principal; asMember: boolean },
  uploadId: string,
  opts: { lock?: boolean; allowRegistered?: boolean } = {},
): Promise<FileUploadRecord> {
  const upload = await findFileUpload(c.db, uploadId, { lock: opts.lock });
  if (!upload) throw fileUploadNotFound();
  if (upload.requested_by !== c.principal.id) throw notUploader();
  if (upload.document_id !== null) {
    if (opts.allowRegistered) return upload;
    throw uploadRegistered();
  }
  if (upload.project_id !== null) {
    const found = await visibleProject(c.db, c.principal, c.asMember, upload.project_id, { lock: opts.lock });
    requireRole(found.access, 'editor');
    requireActiveProject(found.project);
  }
  return upload;
}

/**
 * POST /v1/files/upload-url/renew, before its transaction: the checks, then the same blob signed
 * again by the documents service (WS-462). Refused for another principal (WS-463), once a document
 * is recorded against the upload (WS-464), and seven days after the upload began (its uncommitted
 * blocks are gone). No transaction is open while the documents service answers.
 */
export async function signRenewal(c: Caller, documents: Documents | undefined, uploadId: string): Promise<SignedUrl> {
  if (!documents) throw fileDocumentsNotConfigured();
  const upload = await ownPendingUpload(c, uploadId);
  requireBlocksAlive(new Date(upload.created_at), c.now);
  const url = await documents.uploadUrl(upload.filename, {
    ttlSeconds: uploadTtlSeconds(upload.purpose),
    blobName: upload.blob_name,
  });
  if (!url.ok) urlRefused(url);
  if (url.data.blob_name !== upload.blob_name) {
    throw documentsUnavailable(`the renewal signed ${url.data.blob_name}, not ${upload.blob_name}`);
  }
  return url.data;
}

/** The renewal's transaction: the upload rechecked, locked, and its new expiry recorded. */
export async function renewUpload(ctx: CommandCtx, uploadId: string, signed: SignedUrl): Promise<UploadUrl> {
  const upload = await ownPendingUpload({ db: ctx.trx, principal: ctx.principal, asMember: ctx.asMember }, uploadId, {
    lock: true,
  });
  const renewed = await renewFileUpload(ctx.trx, upload.id, new Date(signed.sas_expires_at));
  return withUrl(renewed, signed.sas_url);
}

/**
 * POST /v1/files, before its transaction: the checks (a project's file needs an editor: WS-017,
 * WS-018, nothing asked of the documents service otherwise), then the blob registered as a
 * document, one per upload however often retried (the key is the upload's id). undefined when
 * the upload is registered already.
 */
export async function registerDocument(
  c: Caller,
  documents: Documents | undefined,
  uploadId: string,
): Promise<string | undefined> {
  if (!documents) throw fileDocumentsNotConfigured();
  const upload = await ownPendingUpload(c, uploadId, { allowRegistered: true });
  if (upload.document_id !== null) return undefined;
  const registered = await documents.register(
    {
      filename: upload.filename,
      storage_account: upload.storage_account,
      container: upload.container,
      blob_name: upload.blob_name,
      content_type: upload.content_type,
      references: [
        upload.project_id === null
          ? { ref_type: 'person', ref_id: c.principal.id, ref_category: upload.purpose, is_external: false }
          : { ref_type: 'project', ref_id: upload.project_id, ref_category: upload.purpose, is_external: false },
      ],
      metadata: [
        { meta_name: 'uploaded_by', meta_value: c.principal.id },
        { meta_name: 'purpose', meta_value: upload.purpose },
      ],
    },
    `workspace-file-upload-${upload.id}`,
  );
  if (!registered.ok) {
    if (registered.code === 'blob_not_found') {
      throw unprocessable('upload_not_received', 'No bytes were uploaded to the upload URL yet', 'body/data/upload_id');
    }
    if (registered.status === 413) {
      throw new AppError(
        413,
        'upload_too_large',
        `The documents service refused the file as too large: ${registered.message}`,
      );
    }
    throw documentsUnavailable(`${registered.code}: ${registered.message}`);
  }
  return registered.data.id;
}

/**
 * The registration's transaction (WS-465): the upload rechecked and locked, its document id
 * recorded, file.registered published. Registered already: 200 with the upload as it is.
 */
export async function recordFile(
  ctx: CommandCtx,
  uploadId: string,
  documentId: string | undefined,
): Promise<{ file: FileUpload; created: boolean }> {
  const { trx, principal, now } = ctx;
  const upload = await ownPendingUpload({ db: trx, principal, asMember: ctx.asMember }, uploadId, {
    lock: true,
    allowRegistered: true,
  });
  if (upload.document_id !== null || documentId === undefined) return { file: fileUpload(upload), created: false };
  const file = await recordFileDocument(trx, upload.id, documentId, now);
  await ctx.emit({
    type: 'file.registered',
    data: { uploadId: file.id, documentId, projectId: file.project_id, purpose: file.purpose, actor: principal.id },
  });
  return { file: fileUpload(file), created: true };
}
