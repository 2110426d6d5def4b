import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePglite, openDatabase, openPglite } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpEvidenceDocuments } from '../src/clients/documents.ts';
import { HttpGmail } from '../src/clients/gmail.ts';
import { workspaceConfig } from '../src/config.ts';
import { IMPORT_WAIT_MS, splitList } from '../src/domain/importers.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { readCursor } from '../src/store/importers.ts';
import { type MailCursor, type MailImportOptions, mailImporter, mailImportPass } from '../src/workers/mail-import.ts';
import { type DocumentsOnAzurite, startDocumentsOnAzurite } from './fakes/documents-on-azurite.ts';
import { type FakeGmail, startFakeGmail } from './fakes/gmail.ts';

/**
 * The mailbox importer (WS-526..WS-532, WS-534) against a fake Gmail at HTTP and the real
 * documents service on Azurite: what it reads, what it drops, what it stores and where.
 */
const TOKEN = 'ya29.gmail-test-token';
const NOW = new Date('2026-03-01T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

type Database = Awaited<ReturnType<typeof testDatabase<DB>>>;
let docs: DocumentsOnAzurite;
let gmail: FakeGmail;
let database: Database;
let now = NOW;

beforeAll(async () => {
  docs = await startDocumentsOnAzurite();
  database = await testDatabase<DB>('workspace', MIGRATIONS);
}, 120_000);
afterAll(async () => {
  await gmail?.close();
  await database?.drop();
  await docs?.close();
});
beforeEach(async () => {
  await gmail?.close();
  gmail = await startFakeGmail({ token: TOKEN, email: 'me@corp.test', pageSize: 2 });
  // Each test: a new mailbox, and the importer as if never run.
  await database.db.deleteFrom('imported_evidence').execute();
  await database.db.deleteFrom('connector_cursors').execute();
  now = NOW;
});

const options = (o: Partial<MailImportOptions> = {}): MailImportOptions => ({
  db: database.db,
  documents: new HttpEvidenceDocuments({ baseUrl: docs.url, storageAccount: 'local' }),
  clock: () => now,
  gmail: new HttpGmail({ baseUrl: gmail.url, token: TOKEN }),
  mailbox: 'me@corp.test',
  windowDays: workspaceConfig({}).MAIL_IMPORT_WINDOW_DAYS,
  contributes: false,
  privacyTopics: [],
  blockList: [],
  ...o,
});

const rows = () =>
  database.db
    .selectFrom('imported_evidence')
    .selectAll()
    .where('source', '=', 'gmail')
    .orderBy('external_id')
    .execute();
const mail = (id: string, o: Partial<Parameters<FakeGmail['add']>[0]> = {}) =>
  gmail.add({
    id,
    from: 'Ana <ana@partner.test>',
    subject: `Subject ${id}`,
    text: `Text of ${id}`,
    at: daysAgo(1),
    ...o,
  });
const gets = () => gmail.requests.filter((r) => /\/messages\/[^/?]+\?/.test(r)).length;

describe('mailbox importer', () => {
  it('19 WS-526 the mailbox importer runs continuously: each pass is followed by a 15-minute wait, so passes start 15 minutes apart', async () => {
    mail('m1');
    const starts: string[] = [];
    const waits: number[] = [];
    const loop = mailImporter(options(), {
      onPass: () => starts.push(now.toISOString()),
      sleep: async (ms) => {
        waits.push(ms);
        now = new Date(now.getTime() + ms);
        // Mail arrives between two passes; the next pass picks it up.
        mail(`m${waits.length + 1}`);
        if (waits.length === 3) void loop.stop();
      },
    });
    await loop.start().finished();
    expect(waits).toEqual([IMPORT_WAIT_MS, IMPORT_WAIT_MS, IMPORT_WAIT_MS]);
    expect(IMPORT_WAIT_MS).toBe(15 * 60_000);
    expect(starts).toEqual(['2026-03-01T12:00:00.000Z', '2026-03-01T12:15:00.000Z', '2026-03-01T12:30:00.000Z']);
    // m4 arrived after the third pass, during the wait that stop() ended.
    expect((await rows()).map((r) => r.external_id)).toEqual(['m1', 'm2', 'm3']);
  });

  it('19 WS-527 without a window setting the first pass reads the last 60 days: older mail is not stored', async () => {
    expect(workspaceConfig({}).MAIL_IMPORT_WINDOW_DAYS).toBe(60);
    mail('recent', { at: daysAgo(59) });
    mail('old', { at: daysAgo(61) });
    await mailImportPass(options());
    const after = Math.floor(daysAgo(60).getTime() / 1000);
    expect(gmail.requests.some((r) => r.includes(`q=after%3A${after}`))).toBe(true);
    expect((await rows()).map((r) => r.external_id)).toEqual(['recent']);
    // A setting changes the window.
    expect(workspaceConfig({ MAIL_IMPORT_WINDOW_DAYS: '90' }).MAIL_IMPORT_WINDOW_DAYS).toBe(90);
  });

  it('19 WS-528 a restarted importer continues from its history cursor: no window listing again, only new mail read', async () => {
    for (const id of ['a1', 'a2', 'a3']) mail(id);
    await mailImportPass(options());
    const cursor = await readCursor<MailCursor>(database.db, 'gmail');
    expect(cursor).toEqual({ phase: 'history', historyId: String(gmail.historyId()) });
    mail('b1');
    mail('b2');
    gmail.requests.length = 0;
    // A new process: new clients, the same database.
    const report = await mailImportPass(options());
    expect(gmail.requests.filter((r) => r.includes('/messages?'))).toEqual([]);
    expect(gmail.requests.some((r) => r.includes(`/history?startHistoryId=${cursor?.historyId}`))).toBe(true);
    expect(gets()).toBe(2);
    expect(report.stored).toBe(2);
    expect((await rows()).map((r) => r.external_id)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    expect(await readCursor<MailCursor>(database.db, 'gmail')).toEqual({
      phase: 'history',
      historyId: String(gmail.historyId()),
    });
  });

  it('19 WS-528 WS-534 a pass interrupted after N messages, then a new pass: each message stored once, one document each', async () => {
    for (let i = 1; i <= 5; i++) mail(`k${i}`);
    let handled = 0;
    await expect(
      mailImportPass(
        options({
          afterItem: () => {
            handled += 1;
            if (handled === 3) throw new Error('killed');
          },
        }),
      ),
    ).rejects.toThrow('killed');
    expect((await rows()).length).toBe(3);
    await mailImportPass(options());
    const stored = await rows();
    expect(stored.map((r) => r.external_id)).toEqual(['k1', 'k2', 'k3', 'k4', 'k5']);
    const documents = await docs.list({ ref_type: 'imported_evidence' });
    const mine = documents.filter((d) => d.references.some((r) => /^gmail:k\d@/.test(r.ref_id)));
    expect(mine.length).toBe(5);
    expect(new Set(stored.map((r) => r.document_id)).size).toBe(5);
  });

  it('19 WS-529 messages on a privacy topic (subject or text, whole words, any case) are not stored', async () => {
    mail('p1', { subject: 'Your MEDICAL leave' });
    mail('p2', { text: 'About the salary review next week' });
    mail('p3', { text: 'Medicalization of nothing', subject: 'ok' });
    mail('p4', { text: 'Plain project update', htmlOnly: true });
    const report = await mailImportPass(options({ privacyTopics: splitList('medical, salary review') }));
    expect((await rows()).map((r) => r.external_id)).toEqual(['p3', 'p4']);
    expect(
      report.dropped
        .filter((d) => d.reason === 'privacy_topic')
        .map((d) => d.id)
        .sort(),
    ).toEqual(['p1', 'p2']);
  });

  it('19 WS-530 messages from a blocked sender or domain are not stored', async () => {
    mail('s1', { from: 'Bank <alerts@bank.test>' });
    mail('s2', { from: 'boss@corp.test' });
    mail('s3', { from: 'Peer <PEER@Corp.test>' });
    mail('s4', { from: 'friend@other.test' });
    await mailImportPass(options({ blockList: splitList('@bank.test, peer@corp.test') }));
    expect((await rows()).map((r) => r.external_id)).toEqual(['s2', 's4']);
  });

  it('19 WS-532 stored messages have company knowledge off by default, on with -contributes', async () => {
    expect(workspaceConfig({}).MAIL_IMPORT_CONTRIBUTES).toBe(false);
    mail('c1');
    await mailImportPass(options());
    expect((await rows()).map((r) => r.contributes_to_knowledge)).toEqual([false]);
    mail('c2');
    await mailImportPass(
      options({ contributes: workspaceConfig({ MAIL_IMPORT_CONTRIBUTES: 'true' }).MAIL_IMPORT_CONTRIBUTES }),
    );
    expect((await rows()).map((r) => [r.external_id, r.contributes_to_knowledge])).toEqual([
      ['c1', false],
      ['c2', true],
    ]);
  });

  it('19 WS-534 a stored message is a document in the documents service; the workspace keeps only its reference', async () => {
    mail('d1', { subject: 'Quarterly plan', text: 'We ship in April.' });
    await mailImportPass(options());
    const [row] = await rows();
    expect(row).toBeDefined();
    // The row holds no content: no column of it carries the text.
    expect(JSON.stringify(row)).not.toContain('We ship in April');
    const found = await docs.list({ ref_type: 'imported_evidence', ref_id: 'gmail:d1@d1' });
    expect(found.map((d) => d.id)).toEqual([row?.document_id]);
    const text = await docs.text(row?.document_id ?? '');
    expect(text).toContain('Subject: Quarterly plan');
    expect(text).toContain('We ship in April.');
  });

  it('19 WS-531 privacy and block lists are configuration only: empty by default, and no committed file holds an entry', () => {
    const c = workspaceConfig({});
    for (const v of [c.MAIL_PRIVACY_TOPICS, c.MAIL_BLOCK_LIST, c.DRIVE_PRIVACY_TOPICS, c.DRIVE_BLOCK_LIST]) {
      expect(splitList(v)).toEqual([]);
    }
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
    const assigned =
      /(MAIL_PRIVACY_TOPICS|MAIL_BLOCK_LIST|DRIVE_PRIVACY_TOPICS|DRIVE_BLOCK_LIST)\s*[:=]\s*["']?([^\s"'#|]+)/;
    const offending: string[] = [];
    for (const f of files) {
      if (/\.(png|jpe?g|gif|ico|tar|gz|zip|pdf|woff2?)$/.test(f) || f.includes('/test/')) continue;
      let text: string;
      try {
        text = readFileSync(`${root}${f}`, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        const m = line.match(assigned);
        // The config reader (optionalStr()) and a README row name the variable without an entry.
        if (m?.[2] && !/^optionalStr\(/.test(m[2]) && !line.trim().startsWith('|'))
          offending.push(`${f}: ${line.trim()}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('19 WS-528 WS-534 an importer process killed (SIGKILL) mid-pass resumes from its cursor: every message stored once, one document each', async () => {
    for (let i = 1; i <= 5; i++) mail(`x${i}`, { at: daysAgo(10 - i) });
    const dir = mkdtempSync(join(tmpdir(), 'mail-import-kill-'));
    const data = join(dir, 'pglite');
    try {
      const child: ChildProcess = fork(
        fileURLToPath(new URL('./mail-import-kill-process.ts', import.meta.url)),
        [data, gmail.url, TOKEN, docs.url, '3', NOW.toISOString()],
        { execArgv: ['--conditions=source', '--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
      );
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const paused = await new Promise<{ handled: number }>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the importer exited (code ${code}) before the third message`)));
        child.once('message', (m: { handled: number }) => resolve(m));
      });
      child.kill('SIGKILL');
      await exited;
      expect(paused).toEqual({ handled: 3 });

      // The folder opened again by a new importer: it resumes and stores the rest, once.
      const pglite = await openPglite(data);
      try {
        const restarted = (await openDatabase<DB>({ schema: 'workspace', pglite })).db;
        const before = await restarted.selectFrom('imported_evidence').select('external_id').execute();
        expect(before.length).toBe(3);
        const getsBefore = gets();
        await mailImportPass(options({ db: restarted }));
        const after = await restarted
          .selectFrom('imported_evidence')
          .select(['external_id', 'document_id'])
          .orderBy('external_id')
          .execute();
        expect(after.map((r) => r.external_id)).toEqual(['x1', 'x2', 'x3', 'x4', 'x5']);
        // The resumed pass fetched only the messages not yet stored (the first page's two were).
        expect(gets() - getsBefore).toBe(2);
        const held = (await docs.list({ ref_type: 'imported_evidence' })).filter((d) =>
          d.references.some((r) => /^gmail:x\d@/.test(r.ref_id)),
        );
        expect(held.length).toBe(5);
        expect(new Set(after.map((r) => r.document_id))).toEqual(new Set(held.map((d) => d.id)));
      } finally {
        await closePglite(pglite);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
