import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpEvidenceDocuments } from '../src/clients/documents.ts';
import { HttpDrive } from '../src/clients/drive.ts';
import { workspaceConfig } from '../src/config.ts';
import { IMPORT_WAIT_MS, splitList } from '../src/domain/importers.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { readCursor } from '../src/store/importers.ts';
import {
  type DriveCursor,
  type DriveImportOptions,
  driveImporter,
  driveImportPass,
} from '../src/workers/drive-import.ts';
import { type DocumentsOnAzurite, startDocumentsOnAzurite } from './fakes/documents-on-azurite.ts';
import { type FakeDrive, type FakeFile, startFakeDrive } from './fakes/drive.ts';

/**
 * The file-drive importer (WS-533, WS-534): the mailbox importer's observations for files, against
 * a fake Drive API v3 at HTTP and the real documents service on Azurite.
 */
const TOKEN = 'ya29.drive-test-token';
const NOW = new Date('2026-03-01T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);
const DOC = 'application/vnd.google-apps.document';

type Database = Awaited<ReturnType<typeof testDatabase<DB>>>;
let docs: DocumentsOnAzurite;
let drive: FakeDrive;
let database: Database;
let now = NOW;

beforeAll(async () => {
  docs = await startDocumentsOnAzurite();
  database = await testDatabase<DB>('workspace', MIGRATIONS);
}, 120_000);
afterAll(async () => {
  await drive?.close();
  await database?.drop();
  await docs?.close();
});
beforeEach(async () => {
  await drive?.close();
  drive = await startFakeDrive({ token: TOKEN, pageSize: 2 });
  await database.db.deleteFrom('imported_evidence').execute();
  await database.db.deleteFrom('connector_cursors').execute();
  now = NOW;
});

const options = (o: Partial<DriveImportOptions> = {}): DriveImportOptions => ({
  db: database.db,
  documents: new HttpEvidenceDocuments({ baseUrl: docs.url, storageAccount: 'local' }),
  clock: () => now,
  drive: new HttpDrive({ baseUrl: drive.url, token: TOKEN }),
  driveName: 'me@corp.test',
  windowDays: workspaceConfig({}).DRIVE_IMPORT_WINDOW_DAYS,
  contributes: false,
  privacyTopics: [],
  blockList: [],
  ...o,
});
const file = (id: string, o: Partial<FakeFile> = {}) =>
  drive.put({
    id,
    name: `${id}.txt`,
    mimeType: 'text/plain',
    modifiedTime: daysAgo(1),
    content: `Content of ${id}`,
    ...o,
  });
const rows = () =>
  database.db
    .selectFrom('imported_evidence')
    .selectAll()
    .where('source', '=', 'drive')
    .orderBy('external_id')
    .execute();
const ids = async () => (await rows()).map((r) => r.external_id);

describe('file-drive importer', () => {
  it('19 WS-533 runs continuously with a 15-minute wait; without a setting its window is the last 60 days', async () => {
    expect(workspaceConfig({}).DRIVE_IMPORT_WINDOW_DAYS).toBe(60);
    file('recent', { modifiedTime: daysAgo(59) });
    file('old', { modifiedTime: daysAgo(61) });
    const starts: string[] = [];
    const waits: number[] = [];
    const loop = driveImporter(options(), {
      onPass: () => starts.push(now.toISOString()),
      sleep: async (ms) => {
        waits.push(ms);
        now = new Date(now.getTime() + ms);
        file(`new${waits.length}`, { modifiedTime: now });
        if (waits.length === 2) void loop.stop();
      },
    });
    await loop.start().finished();
    expect(waits).toEqual([IMPORT_WAIT_MS, IMPORT_WAIT_MS]);
    expect(starts).toEqual(['2026-03-01T12:00:00.000Z', '2026-03-01T12:15:00.000Z']);
    const q = new URLSearchParams({ q: `modifiedTime > '${daysAgo(60).toISOString()}' and trashed = false` });
    expect(drive.requests.some((r) => r.includes(q.toString()))).toBe(true);
    expect(await ids()).toEqual(['new1', 'recent']);
  });

  it('19 WS-533 a restarted importer continues from its changes cursor; a changed file points at a new document', async () => {
    file('f1');
    file('f2');
    file('f3');
    await driveImportPass(options());
    const cursor = await readCursor<DriveCursor>(database.db, 'drive');
    expect(cursor).toEqual({ phase: 'changes', pageToken: '4' });
    const before = await rows();
    file('f2', { content: 'Changed f2', modifiedTime: NOW });
    file('f4');
    drive.requests.length = 0;
    const report = await driveImportPass(options());
    expect(drive.requests.filter((r) => r.startsWith('/drive/v3/files?'))).toEqual([]);
    expect(drive.requests.some((r) => r.startsWith('/drive/v3/changes?pageToken=4'))).toBe(true);
    expect(report).toMatchObject({ stored: 2, unchanged: 0 });
    const after = await rows();
    expect(after.map((r) => [r.external_id, r.version])).toEqual([
      ['f1', '1'],
      ['f2', '2'],
      ['f3', '1'],
      ['f4', '1'],
    ]);
    const f2 = after.find((r) => r.external_id === 'f2');
    expect(f2?.document_id).not.toBe(before.find((r) => r.external_id === 'f2')?.document_id);
    expect(await docs.text(f2?.document_id ?? '')).toBe('Changed f2');
  });

  it('19 WS-533 WS-534 a pass interrupted after N files, then a new pass: each file stored once, one document each', async () => {
    for (let i = 1; i <= 5; i++) file(`k${i}`, { modifiedTime: daysAgo(10 - i) });
    let handled = 0;
    await expect(
      driveImportPass(
        options({
          afterItem: () => {
            handled += 1;
            if (handled === 3) throw new Error('killed');
          },
        }),
      ),
    ).rejects.toThrow('killed');
    expect((await rows()).length).toBe(3);
    await driveImportPass(options());
    expect(await ids()).toEqual(['k1', 'k2', 'k3', 'k4', 'k5']);
    const held = (await docs.list({ ref_type: 'imported_evidence' })).filter((d) =>
      d.references.some((r) => /^drive:k\d@/.test(r.ref_id)),
    );
    expect(held.length).toBe(5);
  });

  it('19 WS-533 files on a privacy topic (name or text) or on the block list (id, name, owner) are not stored', async () => {
    file('p1', { name: 'Medical notes.txt' });
    file('p2', { content: 'the salary review of Q3' });
    file('b1');
    file('b2', { name: 'Secret plan.txt' });
    file('b3', { owner: 'Bank <x@bank.test>' });
    file('ok', { mimeType: DOC, name: 'Roadmap', content: 'Roadmap text' });
    const report = await driveImportPass(
      options({
        privacyTopics: splitList('medical, salary review'),
        blockList: splitList('b1, secret plan.txt, @bank.test'),
      }),
    );
    expect(await ids()).toEqual(['ok']);
    expect(report.dropped.map((d) => [d.id, d.reason]).sort()).toEqual([
      ['b1', 'block_list'],
      ['b2', 'block_list'],
      ['b3', 'block_list'],
      ['p1', 'privacy_topic'],
      ['p2', 'privacy_topic'],
    ]);
    // A Google Doc is exported as text and that text is the document.
    const [row] = await rows();
    expect(await docs.text(row?.document_id ?? '')).toBe('Roadmap text');
    expect(drive.requests.some((r) => r.startsWith('/drive/v3/files/ok/export?mimeType=text%2Fplain'))).toBe(true);
  });

  it('19 WS-533 stored files have company knowledge off by default, on with -contributes', async () => {
    expect(workspaceConfig({}).DRIVE_IMPORT_CONTRIBUTES).toBe(false);
    file('c1');
    await driveImportPass(options());
    file('c2');
    const contributes = workspaceConfig({ DRIVE_IMPORT_CONTRIBUTES: 'true' }).DRIVE_IMPORT_CONTRIBUTES;
    await driveImportPass(options({ contributes }));
    expect((await rows()).map((r) => [r.external_id, r.contributes_to_knowledge])).toEqual([
      ['c1', false],
      ['c2', true],
    ]);
  });
});
