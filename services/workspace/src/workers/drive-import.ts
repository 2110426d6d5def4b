import type { Drive, DriveFile } from '../clients/drive.ts';
import {
  emailAddress,
  fileBlocked,
  IMPORT_WAIT_MS,
  MAX_IMPORT_BYTES,
  privacyTopicFound,
  safeFilename,
  windowStart,
} from '../domain/importers.ts';
import { readCursor, writeCursor } from '../store/importers.ts';
import {
  alreadyImported,
  count,
  emptyReport,
  type ImportDeps,
  type PassReport,
  storeImported,
} from './imported-evidence.ts';
import { PassLoop, type PassLoopOptions } from './pass-loop.ts';

/**
 * The file-drive importer (WS-533, WS-534): the mailbox importer's rules for files. A first pass
 * records Drive's start page token, then lists the files modified in the window (default 60 days;
 * DRIVE_IMPORT_WINDOW_DAYS) page by page; every later pass reads changes from the recorded page
 * token. The cursor is written after each page. A file is dropped when it is on the block list (id,
 * name or owner; DRIVE_BLOCK_LIST), when its name or text names a privacy topic
 * (DRIVE_PRIVACY_TOPICS), when it was last modified before the window, or when it is larger than
 * 10 MiB; folders, trashed and removed files are passed over. Google Docs editors files are
 * exported as text (documents and slides as text/plain, sheets as text/csv); other files are
 * downloaded as they are. A file's version is Drive's `version`: a changed file points its row at a
 * new document. Stored with company knowledge off unless DRIVE_IMPORT_CONTRIBUTES (-contributes).
 */

export const DRIVE_CONNECTOR = 'drive';

export type DriveCursor =
  | { phase: 'window'; startPageToken: string; after: string; pageToken?: string }
  | { phase: 'changes'; pageToken: string };

export interface DriveImportOptions extends ImportDeps {
  drive: Drive;
  /** The drive's name as evidence shows it (origin). */
  driveName: string;
  windowDays: number;
  contributes: boolean;
  privacyTopics: string[];
  blockList: string[];
  afterItem?: (report: PassReport) => Promise<void> | void;
}

const EXPORTS: Record<string, { mime: string; ext: string }> = {
  'application/vnd.google-apps.document': { mime: 'text/plain', ext: 'txt' },
  'application/vnd.google-apps.presentation': { mime: 'text/plain', ext: 'txt' },
  'application/vnd.google-apps.spreadsheet': { mime: 'text/csv', ext: 'csv' },
};
const GOOGLE_APPS = 'application/vnd.google-apps.';
const textual = (mime: string) => mime.startsWith('text/') || mime === 'application/json' || mime === 'text/csv';

export async function driveImportPass(o: DriveImportOptions): Promise<PassReport> {
  const report = emptyReport();
  const since = windowStart(o.clock(), o.windowDays);
  let cursor = await readCursor<DriveCursor>(o.db, DRIVE_CONNECTOR);
  if (!cursor) {
    const token = await o.drive.startPageToken();
    if (!token.ok) throw new Error(`drive changes.getStartPageToken: ${token.code} ${token.message}`);
    cursor = { phase: 'window', startPageToken: token.data, after: since.toISOString() };
    await writeCursor(o.db, DRIVE_CONNECTOR, cursor, o.clock());
  }
  const handle = async (f: DriveFile) => {
    await importFile(o, f, since, report);
    await o.afterItem?.(report);
  };
  if (cursor.phase === 'window') {
    for (;;) {
      const q = `modifiedTime > '${cursor.after}' and trashed = false`;
      const page = await o.drive.listFiles(q, cursor.pageToken);
      if (!page.ok) throw new Error(`drive files.list: ${page.code} ${page.message}`);
      for (const f of page.data.files) await handle(f);
      cursor = page.data.nextPageToken
        ? { ...cursor, pageToken: page.data.nextPageToken }
        : { phase: 'changes', pageToken: cursor.startPageToken };
      await writeCursor(o.db, DRIVE_CONNECTOR, cursor, o.clock());
      if (cursor.phase === 'changes') return report;
    }
  }
  for (;;) {
    const page = await o.drive.listChanges(cursor.pageToken);
    if (!page.ok) throw new Error(`drive changes.list: ${page.code} ${page.message}`);
    for (const c of page.data.changes) {
      if (c.removed || !c.file) continue;
      await handle(c.file);
    }
    const token = page.data.nextPageToken ?? page.data.newStartPageToken;
    if (!token) throw new Error('drive changes.list: neither nextPageToken nor newStartPageToken');
    cursor = { phase: 'changes', pageToken: token };
    await writeCursor(o.db, DRIVE_CONNECTOR, cursor, o.clock());
    if (!page.data.nextPageToken) return report;
  }
}

async function importFile(o: DriveImportOptions, f: DriveFile, since: Date, report: PassReport) {
  if (f.trashed || f.mimeType === `${GOOGLE_APPS}folder`) return;
  const exported = EXPORTS[f.mimeType];
  if (f.mimeType.startsWith(GOOGLE_APPS) && !exported) return;
  const id = f.id;
  if (new Date(f.modifiedTime) < since) return report.dropped.push({ id, reason: 'outside_window' });
  const owners = (f.owners ?? []).map((x) => emailAddress(x.emailAddress ?? '')).filter((x) => x !== '');
  if (fileBlocked(o.blockList, { id, name: f.name, owners })) return report.dropped.push({ id, reason: 'block_list' });
  if (privacyTopicFound(o.privacyTopics, f.name)) return report.dropped.push({ id, reason: 'privacy_topic' });
  if (Number(f.size ?? 0) > MAX_IMPORT_BYTES) return report.dropped.push({ id, reason: 'too_large' });
  const version = f.version ?? f.modifiedTime;
  if (await alreadyImported(o.db, 'drive', id, version)) return count(report, 'unchanged');
  const bytes = exported
    ? await o.drive.exportAs(id, exported.mime, MAX_IMPORT_BYTES)
    : await o.drive.download(id, MAX_IMPORT_BYTES);
  if (!bytes.ok) {
    if (bytes.status === 413) return report.dropped.push({ id, reason: 'too_large' });
    return count(report, 'failed');
  }
  const contentType = exported?.mime ?? f.mimeType;
  if (textual(contentType) && privacyTopicFound(o.privacyTopics, bytes.data.toString('utf8'))) {
    return report.dropped.push({ id, reason: 'privacy_topic' });
  }
  const dot = f.name.lastIndexOf('.');
  const ext = exported?.ext ?? (dot > 0 ? f.name.slice(dot + 1).replace(/[^A-Za-z0-9]/g, '') : '') ?? 'bin';
  const outcome = await storeImported(o, {
    source: 'drive',
    external_id: id,
    version,
    title: f.name.slice(0, 300),
    origin: o.driveName,
    url: f.webViewLink ?? null,
    contributes_to_knowledge: o.contributes,
    occurred_at: new Date(f.modifiedTime),
    content: async () => ({
      ok: true,
      filename: safeFilename(`drive-${id}`, ext && ext.length <= 16 ? ext : 'bin'),
      content_type: contentType,
      bytes: bytes.data,
    }),
  });
  count(report, outcome);
}

/** The file-drive importer as it runs: a pass, a 15-minute wait, the next pass, until stopped. */
export const driveImporter = (
  o: DriveImportOptions,
  loop: Pick<PassLoopOptions, 'onError' | 'onPass' | 'sleep'> = {},
) => new PassLoop({ name: 'drive-import', pass: () => driveImportPass(o), waitMs: IMPORT_WAIT_MS, ...loop });
