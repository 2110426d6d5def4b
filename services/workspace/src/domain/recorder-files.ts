import { AppError, conflict, forbidden, notFound, unavailable, unprocessable } from '@platform/kit';

/** The recorder partner and files through the documents service (spec 2; issue 19), as plain rules. */

/** A recorder user token lives one hour (WS-448). */
export const RECORDER_TOKEN_SECONDS = 60 * 60;
/** purpose=live_recording: the write URL is valid six hours (WS-461). */
export const LIVE_RECORDING_URL_SECONDS = 6 * 60 * 60;
/** Storage keeps uncommitted blocks seven days (WS-469): after that an upload takes no new URL. */
export const BLOCK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** The client renews its write URL this long before it expires (WS-467). */
export const RENEW_BEFORE_MS = 30 * 60 * 1000;
/** The adoption window's default length: the last thirty days (WS-455). */
export const ADOPTION_DEFAULT_DAYS = 30;
/** The longest adoption window one request reads. */
export const ADOPTION_MAX_DAYS = 366;
export const ADOPTION_PAGE = { pageSize: 50, maxPageSize: 200 } as const;

export const UPLOAD_PURPOSES = ['file', 'recording', 'live_recording'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** The write URL's lifetime asked of the documents service: six hours for a live recording, else its default. */
export const uploadTtlSeconds = (purpose: UploadPurpose): number | undefined =>
  purpose === 'live_recording' ? LIVE_RECORDING_URL_SECONDS : undefined;

/** The UTC calendar day of an instant, YYYY-MM-DD (a sign-in day, WS-451). */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

const SERIAL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A recorder serial as sent, trimmed: 1 to 64 letters, digits, - or _ (422 invalid_serial). */
export function recorderSerial(raw: string): string {
  const serial = raw.trim();
  if (!SERIAL.test(serial)) {
    throw unprocessable(
      'invalid_serial',
      'A recorder serial is 1 to 64 letters, digits, - or _, starting with a letter or digit',
      'body/data/serial',
    );
  }
  return serial;
}

/**
 * The adoption window, half-open [since, until) (WS-454): until defaults to now, since to thirty
 * days before until (WS-455). since must be before until and the window at most 366 days.
 */
export function adoptionWindow(q: { since?: string; until?: string }, now: Date): { since: Date; until: Date } {
  const until = q.until ? new Date(q.until) : now;
  const since = q.since ? new Date(q.since) : new Date(until.getTime() - ADOPTION_DEFAULT_DAYS * 86_400_000);
  if (Number.isNaN(until.getTime()) || Number.isNaN(since.getTime())) {
    throw unprocessable('invalid_adoption_window', 'since and until are dates or instants (ISO 8601)', 'querystring');
  }
  if (since.getTime() >= until.getTime()) {
    throw unprocessable('invalid_adoption_window', 'since must be before until', 'querystring/since');
  }
  if (until.getTime() - since.getTime() > ADOPTION_MAX_DAYS * 86_400_000) {
    throw unprocessable('invalid_adoption_window', `The window is at most ${ADOPTION_MAX_DAYS} days`, 'querystring');
  }
  return { since, until };
}

export const recorderNotConfigured = () =>
  unavailable(
    'recorder_not_configured',
    'The recorder service is not configured (RECORDER_URL and RECORDER_PARTNER_SECRET); nothing was written',
  );

export const recorderUnavailable = (status: number, code: string) =>
  new AppError(502, 'recorder_unavailable', `The recorder service did not complete the call (HTTP ${status}, ${code})`);

export const deviceTaken = () => conflict('device_taken', 'This recorder serial is registered to another person');

export const fileDocumentsNotConfigured = () =>
  unavailable(
    'documents_not_configured',
    'Files need the documents service (DOCUMENTS_URL), which is not configured; nothing was written',
  );

export const fileUploadNotFound = () => notFound('File upload', 'file_upload_not_found');

export const notUploader = () =>
  forbidden('Only the principal who asked for this upload URL may renew it or register its file', 'not_uploader');

export const uploadRegistered = () =>
  conflict('upload_registered', 'A document is already recorded against this upload: no new write URL is given');

/** An upload older than seven days: its uncommitted blocks are gone, so it is not renewed (start a new one). */
export function requireBlocksAlive(createdAt: Date, now: Date) {
  if (now.getTime() - createdAt.getTime() >= BLOCK_LIFETIME_MS) {
    throw conflict(
      'upload_blocks_expired',
      'The upload is more than seven days old: storage has dropped its uncommitted blocks; ask for a new upload URL',
    );
  }
}
