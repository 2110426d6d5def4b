import type { Gmail, GmailMessage, GmailPart } from '../clients/gmail.ts';
import {
  emailAddress,
  IMPORT_WAIT_MS,
  privacyTopicFound,
  safeFilename,
  senderBlocked,
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
 * The mailbox importer (WS-526..WS-532, WS-534): one Gmail mailbox read continuously, passes 15
 * minutes apart (PassLoop). A first pass records the mailbox's history id, then lists the messages
 * of the window (default the last 60 days; MAIL_IMPORT_WINDOW_DAYS) page by page; every later pass
 * reads users.history from the recorded history id. The cursor is written after each page, so a
 * pass killed mid-run resumes at most one page back, and the stored rows keep that page's messages
 * from being stored twice. A message is dropped (nothing stored) when its sender is on the block
 * list (MAIL_BLOCK_LIST), when its subject or text names a privacy topic (MAIL_PRIVACY_TOPICS), when
 * it is a draft, spam or trash, or when it is older than the window. The rest is stored through
 * the documents service with company knowledge off unless MAIL_IMPORT_CONTRIBUTES (-contributes).
 */

export const MAIL_CONNECTOR = 'gmail';

export type MailCursor =
  | { phase: 'window'; historyId: string; after: number; pageToken?: string }
  | { phase: 'history'; historyId: string; pageToken?: string };

export interface MailImportOptions extends ImportDeps {
  gmail: Gmail;
  /** The mailbox's name as evidence shows it (origin). */
  mailbox: string;
  windowDays: number;
  /** -contributes: stored messages feed company knowledge. */
  contributes: boolean;
  privacyTopics: string[];
  blockList: string[];
  /** Called after each message handled (tests stop a pass there). */
  afterItem?: (report: PassReport) => Promise<void> | void;
}

const SKIPPED_LABELS = ['DRAFT', 'SPAM', 'TRASH'];

const header = (m: GmailMessage, name: string) =>
  m.payload.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? '';

const decode = (data: string) => Buffer.from(data.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');

/** The message's text: its text/plain parts, else its text/html parts without tags, else the snippet. */
export function messageText(m: GmailMessage): string {
  const plain: string[] = [];
  const html: string[] = [];
  const walk = (p: GmailPart) => {
    if (p.body?.data && !p.filename) {
      if (p.mimeType === 'text/plain') plain.push(decode(p.body.data));
      else if (p.mimeType === 'text/html') html.push(decode(p.body.data));
    }
    for (const c of p.parts ?? []) walk(c);
  };
  walk(m.payload);
  if (plain.length) return plain.join('\n');
  if (html.length)
    return html
      .join('\n')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return m.snippet ?? '';
}

export async function mailImportPass(o: MailImportOptions): Promise<PassReport> {
  const report = emptyReport();
  const now = o.clock();
  const since = windowStart(now, o.windowDays);
  let cursor = await readCursor<MailCursor>(o.db, MAIL_CONNECTOR);
  if (!cursor) {
    const profile = await o.gmail.profile();
    if (!profile.ok) throw new Error(`gmail profile: ${profile.code} ${profile.message}`);
    cursor = { phase: 'window', historyId: profile.data.historyId, after: Math.floor(since.getTime() / 1000) };
    await writeCursor(o.db, MAIL_CONNECTOR, cursor, now);
  }
  const handle = async (id: string) => {
    await importMessage(o, id, since, report);
    await o.afterItem?.(report);
  };
  if (cursor.phase === 'window') {
    for (;;) {
      const page = await o.gmail.listMessages(`after:${cursor.after}`, cursor.pageToken);
      if (!page.ok) throw new Error(`gmail messages.list: ${page.code} ${page.message}`);
      for (const m of page.data.messages ?? []) await handle(m.id);
      cursor = page.data.nextPageToken
        ? { ...cursor, pageToken: page.data.nextPageToken }
        : { phase: 'history', historyId: cursor.historyId };
      await writeCursor(o.db, MAIL_CONNECTOR, cursor, o.clock());
      if (cursor.phase === 'history') return report;
    }
  }
  for (;;) {
    const page = await o.gmail.listHistory(cursor.historyId, cursor.pageToken);
    if (!page.ok && page.status === 404) {
      // The history id is too old to read from: read the window again (stored messages stay once).
      const profile = await o.gmail.profile();
      if (!profile.ok) throw new Error(`gmail profile: ${profile.code} ${profile.message}`);
      const restart: MailCursor = {
        phase: 'window',
        historyId: profile.data.historyId,
        after: Math.floor(since.getTime() / 1000),
      };
      await writeCursor(o.db, MAIL_CONNECTOR, restart, o.clock());
      return report;
    }
    if (!page.ok) throw new Error(`gmail history.list: ${page.code} ${page.message}`);
    for (const h of page.data.history ?? []) {
      for (const added of h.messagesAdded ?? []) await handle(added.message.id);
    }
    const next: MailCursor = page.data.nextPageToken
      ? { phase: 'history', historyId: cursor.historyId, pageToken: page.data.nextPageToken }
      : { phase: 'history', historyId: page.data.historyId };
    await writeCursor(o.db, MAIL_CONNECTOR, next, o.clock());
    if (!page.data.nextPageToken) return report;
    cursor = next;
  }
}

async function importMessage(o: MailImportOptions, id: string, since: Date, report: PassReport) {
  // A message never changes: its id is its version.
  if (await alreadyImported(o.db, 'gmail', id, id)) return count(report, 'unchanged');
  const got = await o.gmail.getMessage(id);
  if (!got.ok) {
    if (got.status !== 404) count(report, 'failed');
    return;
  }
  const m = got.data;
  if (m.labelIds?.some((l) => SKIPPED_LABELS.includes(l))) return report.dropped.push({ id, reason: 'draft' });
  const at = new Date(Number(m.internalDate));
  if (at < since) return report.dropped.push({ id, reason: 'outside_window' });
  const from = emailAddress(header(m, 'From'));
  if (senderBlocked(o.blockList, [from])) return report.dropped.push({ id, reason: 'block_list' });
  const subject = header(m, 'Subject');
  const text = messageText(m);
  if (privacyTopicFound(o.privacyTopics, subject, text)) return report.dropped.push({ id, reason: 'privacy_topic' });
  const rendered = [
    `From: ${header(m, 'From')}`,
    `To: ${header(m, 'To')}`,
    `Date: ${header(m, 'Date') || at.toISOString()}`,
    `Subject: ${subject}`,
    '',
    text,
  ].join('\n');
  const outcome = await storeImported(o, {
    source: 'gmail',
    external_id: id,
    version: id,
    title: subject.slice(0, 300) || '(no subject)',
    origin: o.mailbox,
    url: null,
    contributes_to_knowledge: o.contributes,
    occurred_at: at,
    content: async () => ({
      ok: true,
      filename: safeFilename(`gmail-${id}`, 'txt'),
      content_type: 'text/plain',
      bytes: Buffer.from(rendered, 'utf8'),
    }),
  });
  count(report, outcome);
}

/** The mailbox importer as it runs: a pass, a 15-minute wait, the next pass, until stopped (WS-526). */
export const mailImporter = (o: MailImportOptions, loop: Pick<PassLoopOptions, 'onError' | 'onPass' | 'sleep'> = {}) =>
  new PassLoop({ name: 'mail-import', pass: () => mailImportPass(o), waitMs: IMPORT_WAIT_MS, ...loop });
