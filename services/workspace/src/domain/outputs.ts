import { createHash } from 'node:crypto';
import { AppError, conflict, notFound, unavailable, unprocessable } from '@platform/kit';

/**
 * Saved outputs (spec 2, "Conversation, turn, output"): versioned artifacts on a project, one
 * active row per slug. The same slug with the same sha256 is a no-op; another sha256 supersedes
 * the active row and writes version N + 1. Inline bodies are at most 256 KiB; larger files take
 * the two-step path (upload, then finalize through the documents service).
 */

export const OUTPUT_STATUSES = ['active', 'superseded'] as const;
export type OutputStatus = (typeof OUTPUT_STATUSES)[number];

/** The inline body's limit (spec 2, Limits): 256 KiB of UTF-8. */
export const INLINE_MAX_BYTES = 256 * 1024;
/** The largest file finalize reads back to hash and scan. */
export const UPLOAD_MAX_BYTES = 32 * 1024 * 1024;
/** How long an upload may wait for its finalize. */
export const UPLOAD_TTL_SECONDS = 3600;
export const OUTPUT_PAGE = { pageSize: 50, maxPageSize: 200 } as const;
export const TITLE_MAX = 200;
export const DEFAULT_CONTENT_TYPE = 'text/plain; charset=utf-8';

const SLUG = /^[a-z0-9][a-z0-9._-]{0,119}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const CONTENT_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*;[\t\x20-\x7e]*)?$/;

export const outputNotFound = () => notFound('Saved output', 'output_not_found');
export const uploadNotFound = () => notFound('Output upload', 'upload_not_found');

/** A slug: lowercase letters, digits, dot, dash and underscore, starting with a letter or digit, 1 to 120 (422 invalid_slug). */
export function outputSlug(raw: string): string {
  if (!SLUG.test(raw)) {
    throw unprocessable(
      'invalid_slug',
      'A slug is 1 to 120 lowercase letters, digits, dots, dashes or underscores, starting with a letter or digit',
      'body/data/slug',
    );
  }
  return raw;
}

/** A title: trimmed, at most 200 characters (422 invalid_output_title); empty when none. */
export function outputTitle(raw: string | undefined): string {
  const t = (raw ?? '').trim();
  if (t.length > TITLE_MAX) {
    throw unprocessable(
      'invalid_output_title',
      `An output title is at most ${TITLE_MAX} characters`,
      'body/data/title',
    );
  }
  return t;
}

/** A media type with optional printable parameters (422 invalid_content_type). */
export function contentType(raw: string | undefined, fallback = DEFAULT_CONTENT_TYPE): string {
  if (raw === undefined) return fallback;
  if (raw.length > 255 || !CONTENT_TYPE.test(raw)) {
    throw unprocessable(
      'invalid_content_type',
      'content_type is a media type such as text/markdown',
      'body/data/content_type',
    );
  }
  return raw;
}

/** A claimed digest: 64 lowercase hex characters (422 invalid_sha256). */
export function claimedSha256(raw: string): string {
  if (!SHA256.test(raw)) {
    throw unprocessable(
      'invalid_sha256',
      'sha256 is the lowercase hex SHA-256 of the bytes (64 characters)',
      'body/data/sha256',
    );
  }
  return raw;
}

export const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** The inline body as bytes: at most 256 KiB of UTF-8 (413 inline_body_too_large, pointing at the upload path). */
export function inlineBytes(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length > INLINE_MAX_BYTES) {
    throw new AppError(
      413,
      'inline_body_too_large',
      `An inline output body is at most ${INLINE_MAX_BYTES} bytes (256 KiB) of UTF-8; this one is ${bytes.length}. Larger files go through POST .../outputs/upload and .../outputs/finalize. Nothing was saved.`,
    );
  }
  return bytes;
}

/** An unfiled conversation's output needs data.project_id (422 project_id_required). */
export function outputProject(conversationProject: string | null, sent: string | undefined): string {
  if (conversationProject !== null) {
    if (sent !== undefined && sent !== conversationProject) {
      throw unprocessable(
        'project_mismatch',
        "A filed conversation saves outputs on its own project: leave out project_id or send the conversation's",
        'body/data/project_id',
      );
    }
    return conversationProject;
  }
  if (sent === undefined) {
    throw unprocessable(
      'project_id_required',
      'The conversation is unfiled: name the project the output is saved on in data.project_id',
      'body/data/project_id',
    );
  }
  return sent;
}

/** What a save does given the slug's active row: nothing (same sha256) or write version N + 1. */
export type SavePlan = { kind: 'unchanged' } | { kind: 'new_version'; version: number; supersedes: string | null };

export function planSave(
  active: { id: string; version: number; sha256: string } | undefined,
  latestVersion: number,
  sha256: string,
): SavePlan {
  if (active && active.sha256 === sha256) return { kind: 'unchanged' };
  return { kind: 'new_version', version: latestVersion + 1, supersedes: active?.id ?? null };
}

/** DOCUMENTS_URL unset: the upload path is 503 documents_not_configured. */
export const documentsNotConfigured = () =>
  unavailable(
    'documents_not_configured',
    'Uploading outputs needs the documents service (DOCUMENTS_URL), which is not configured; inline saves still work',
  );

/** The documents service or blob storage failed us: 503 documents_unavailable. */
export const documentsUnavailable = (detail: string) =>
  unavailable('documents_unavailable', `The documents service did not complete the upload: ${detail}`);

/** An upload finalized already: 409 upload_finalized. */
export function requirePendingUpload(u: { finalized_at: Date | null }): void {
  if (u.finalized_at !== null) throw conflict('upload_finalized', 'This upload was already finalized');
}

/** An upload past its time: 409 upload_expired (start another). */
export function requireFreshUpload(u: { expires_at: Date }, now: Date): void {
  if (u.expires_at.getTime() <= now.getTime()) {
    throw conflict('upload_expired', 'The upload expired before it was finalized; start another');
  }
}

/** finalize with bytes whose sha256 is not the one claimed: 422 sha256_mismatch (nothing committed). */
export function requireSameSha256(claimed: string, actual: string): void {
  if (claimed !== actual) {
    throw new AppError(422, 'sha256_mismatch', 'The uploaded bytes do not have the sha256 sent; nothing was saved', [
      {
        code: 'sha256_mismatch',
        message: 'The uploaded bytes do not have the sha256 sent; nothing was saved',
        field: 'body/data/sha256',
        value: { claimed, actual },
      },
    ]);
  }
}

/** A finalized file larger than finalize reads: 413 upload_too_large. */
export const uploadTooLarge = (size: number) =>
  new AppError(
    413,
    'upload_too_large',
    `An uploaded output is at most ${UPLOAD_MAX_BYTES} bytes; this one is ${size}. Nothing was saved.`,
  );
