import type { Database } from '@platform/kit';
import { HttpEvidenceDocuments } from '../clients/documents.ts';
import { HttpDrive } from '../clients/drive.ts';
import { HttpGithub } from '../clients/github.ts';
import { HttpGmail } from '../clients/gmail.ts';
import type { WorkspaceConfig } from '../config.ts';
import { parseRepositoryAllowlist, splitList } from '../domain/importers.ts';
import type { DB } from '../store/db.ts';
import { codeHostWorker } from './code-host.ts';
import { driveImporter } from './drive-import.ts';
import { mailImporter } from './mail-import.ts';
import type { PassLoop } from './pass-loop.ts';

interface Log {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
}

/**
 * Starts the connectors that are configured (src/start.ts) and returns what stops them. Each
 * writes evidence through the documents service, so none runs without DOCUMENTS_URL.
 * - the pull-request and issue workers: their allowlist not empty (CODE_HOST_*_REPOSITORIES);
 * - the mailbox importer: GMAIL_ACCESS_TOKEN set;
 * - the file-drive importer: DRIVE_ACCESS_TOKEN set.
 * The privacy and block lists come from the environment only (WS-531).
 */
export function startConnectors(config: WorkspaceConfig, database: Database<DB>, log: Log): () => Promise<void> {
  const loops: PassLoop[] = [];
  const pulls = parseRepositoryAllowlist(config.CODE_HOST_PULLS_REPOSITORIES);
  const issues = parseRepositoryAllowlist(config.CODE_HOST_ISSUES_REPOSITORIES);
  const wanted = pulls.length + issues.length > 0 || config.GMAIL_ACCESS_TOKEN || config.DRIVE_ACCESS_TOKEN;
  if (!wanted) return async () => {};
  if (!config.DOCUMENTS_URL) {
    log.warn({}, 'connectors configured but DOCUMENTS_URL is not set: they write evidence there, so none runs');
    return async () => {};
  }
  const base = {
    db: database.db,
    documents: new HttpEvidenceDocuments({
      baseUrl: config.DOCUMENTS_URL,
      serviceToken: config.SERVICE_TOKEN,
      storageAccount: config.OUTPUTS_STORAGE_ACCOUNT,
    }),
    clock: () => new Date(),
  };
  const onError = (name: string) => (e: unknown) => log.warn({ err: e }, `${name} pass failed`);
  const github = new HttpGithub({ baseUrl: config.GITHUB_API_URL, token: config.GITHUB_TOKEN });
  const waitMs = config.CODE_HOST_INTERVAL_MINUTES * 60_000;
  for (const [kind, repositories] of [
    ['pulls', pulls],
    ['issues', issues],
  ] as const) {
    const w = codeHostWorker(kind, { ...base, github, repositories }, waitMs, {
      onError: onError(`code-host ${kind}`),
    });
    if (w) loops.push(w);
  }
  if (config.GMAIL_ACCESS_TOKEN) {
    const gmail = new HttpGmail({
      baseUrl: config.GMAIL_API_URL,
      token: config.GMAIL_ACCESS_TOKEN,
      user: config.GMAIL_USER,
    });
    loops.push(
      mailImporter(
        {
          ...base,
          gmail,
          mailbox: config.GMAIL_USER,
          windowDays: config.MAIL_IMPORT_WINDOW_DAYS,
          contributes: config.MAIL_IMPORT_CONTRIBUTES,
          privacyTopics: splitList(config.MAIL_PRIVACY_TOPICS),
          blockList: splitList(config.MAIL_BLOCK_LIST),
        },
        { onError: onError('mail import') },
      ),
    );
  }
  if (config.DRIVE_ACCESS_TOKEN) {
    const drive = new HttpDrive({ baseUrl: config.DRIVE_API_URL, token: config.DRIVE_ACCESS_TOKEN });
    loops.push(
      driveImporter(
        {
          ...base,
          drive,
          driveName: 'drive',
          windowDays: config.DRIVE_IMPORT_WINDOW_DAYS,
          contributes: config.DRIVE_IMPORT_CONTRIBUTES,
          privacyTopics: splitList(config.DRIVE_PRIVACY_TOPICS),
          blockList: splitList(config.DRIVE_BLOCK_LIST),
        },
        { onError: onError('drive import') },
      ),
    );
  }
  for (const l of loops) l.start();
  log.info({ connectors: loops.length }, 'connectors started');
  return async () => {
    await Promise.all(loops.map((l) => l.stop()));
  };
}
