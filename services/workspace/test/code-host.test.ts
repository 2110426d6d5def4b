import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpEvidenceDocuments } from '../src/clients/documents.ts';
import { HttpGithub } from '../src/clients/github.ts';
import { workspaceConfig } from '../src/config.ts';
import { parseRepositoryAllowlist } from '../src/domain/importers.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { type CodeHostOptions, codeHostPass, codeHostWorker } from '../src/workers/code-host.ts';
import { startConnectors } from '../src/workers/connectors.ts';
import { type DocumentsOnAzurite, startDocumentsOnAzurite } from './fakes/documents-on-azurite.ts';
import { type FakeGithub, startFakeGithub } from './fakes/github.ts';

/**
 * The two code-host workers (WS-522..WS-525) against a fake GitHub REST API at HTTP and the real
 * documents service on Azurite (what they store goes there, WS-534).
 */
const TOKEN = 'ghp_codehosttesttoken';
type Database = Awaited<ReturnType<typeof testDatabase<DB>>>;
let docs: DocumentsOnAzurite;
let github: FakeGithub;
let database: Database;

beforeAll(async () => {
  docs = await startDocumentsOnAzurite();
  database = await testDatabase<DB>('workspace', MIGRATIONS);
}, 120_000);
afterAll(async () => {
  await github?.close();
  await database?.drop();
  await docs?.close();
});
beforeEach(async () => {
  await github?.close();
  github = await startFakeGithub({ token: TOKEN });
  await database.db.deleteFrom('imported_evidence').execute();
  await database.db.deleteFrom('connector_cursors').execute();
});

const options = (allowlist: string): CodeHostOptions => ({
  db: database.db,
  documents: new HttpEvidenceDocuments({ baseUrl: docs.url, storageAccount: 'local' }),
  clock: () => new Date('2026-03-01T12:00:00Z'),
  github: new HttpGithub({ baseUrl: github.url, token: TOKEN }),
  repositories: parseRepositoryAllowlist(allowlist),
});
const rows = () =>
  database.db
    .selectFrom('imported_evidence')
    .select(['source', 'external_id', 'origin', 'contributes_to_knowledge', 'document_id'])
    .orderBy('source')
    .orderBy('external_id')
    .execute();
const at = (d: number) => `2026-02-${String(d).padStart(2, '0')}T10:00:00Z`;

function seed() {
  for (const name of ['acme/api', 'acme/secret', 'acme/vault', 'other/tool']) {
    const r = github.repo(name, { private: name === 'acme/secret' || name === 'acme/vault' });
    r.pulls.push({ number: 1, title: `PR in ${name}`, body: 'Adds the thing', updated_at: at(2) });
    r.issues.push({ number: 2, title: `Issue in ${name}`, body: 'It breaks', updated_at: at(3) });
  }
}

describe('code-host workers', () => {
  it('19 WS-522 each worker reads only its allowlisted repositories: no request names another, nothing of another is stored', async () => {
    seed();
    await codeHostPass('pulls', options('acme/api'));
    await codeHostPass('issues', options('acme/api, acme/secret'));
    const paths = github.requests.map((r) => r.split('?')[0]);
    expect(new Set(paths.map((p) => p?.split('/').slice(2, 4).join('/')))).toEqual(
      new Set(['acme/api', 'acme/secret']),
    );
    expect(paths.some((p) => p?.includes('/acme/secret/pulls'))).toBe(false);
    expect((await rows()).map((r) => [r.source, r.external_id])).toEqual([
      ['github_issue', 'acme/api#2'],
      ['github_issue', 'acme/secret#2'],
      ['github_pull', 'acme/api#1'],
    ]);
  });

  it('19 WS-523 a code-host worker with an empty list is idle: not started, and a pass reads nothing', async () => {
    seed();
    const c = workspaceConfig({});
    expect(parseRepositoryAllowlist(c.CODE_HOST_PULLS_REPOSITORIES)).toEqual([]);
    expect(parseRepositoryAllowlist(c.CODE_HOST_ISSUES_REPOSITORIES)).toEqual([]);
    expect(codeHostWorker('pulls', options(''), 60_000)).toBeUndefined();
    expect(codeHostWorker('issues', options(' , '), 60_000)).toBeUndefined();
    const report = await codeHostPass('pulls', options(''));
    await codeHostPass('issues', options(''));
    expect(github.requests).toEqual([]);
    expect(report).toEqual({ stored: 0, unchanged: 0, failed: 0, dropped: [] });
    expect(await rows()).toEqual([]);
    expect(codeHostWorker('pulls', options('acme/api'), 60_000)).toBeDefined();
  });

  it('19 WS-524 a private repository feeds the knowledge layer only with its contributes flag; a public one always', async () => {
    seed();
    await codeHostPass('pulls', options('acme/api, acme/secret, acme/vault:contributes'));
    expect((await rows()).map((r) => [r.external_id, r.contributes_to_knowledge])).toEqual([
      ['acme/api#1', true],
      ['acme/secret#1', false],
      ['acme/vault#1', true],
    ]);
    expect(() => parseRepositoryAllowlist('acme/api:everything')).toThrow(/acme\/api:everything/);
    // acme/api made private: its stored items stop feeding knowledge on the next pass.
    const api = github.repos.get('acme/api');
    if (api) api.private = true;
    await codeHostPass('pulls', options('acme/api, acme/secret, acme/vault:contributes'));
    expect((await rows()).map((r) => [r.external_id, r.contributes_to_knowledge])).toEqual([
      ['acme/api#1', false],
      ['acme/secret#1', false],
      ['acme/vault#1', true],
    ]);
  });

  it('19 WS-525 WS-534 drafts are skipped by both workers; a draft marked ready is stored then, through the documents service', async () => {
    const r = github.repo('acme/api');
    r.pulls.push(
      { number: 5, title: 'Draft work', draft: true, updated_at: at(4) },
      { number: 6, title: 'Ready work', updated_at: at(5) },
    );
    r.issues.push({ number: 7, title: 'Bug', updated_at: at(6) });
    const pulls = await codeHostPass('pulls', options('acme/api'));
    const issues = await codeHostPass('issues', options('acme/api'));
    expect(pulls.dropped).toEqual([{ id: 'acme/api#5', reason: 'draft' }]);
    expect(issues.dropped).toEqual([{ id: 'acme/api#5', reason: 'draft' }]);
    expect((await rows()).map((x) => x.external_id)).toEqual(['acme/api#7', 'acme/api#6']);
    // Marked ready for review: updated, read again from the cursor, stored.
    const draft = r.pulls[0];
    if (draft) Object.assign(draft, { draft: false, updated_at: at(7), body: 'Now ready' });
    const again = await codeHostPass('pulls', options('acme/api'));
    expect(again).toMatchObject({ stored: 1, unchanged: 0, dropped: [] });
    const stored = await rows();
    expect(stored.map((x) => x.external_id)).toEqual(['acme/api#7', 'acme/api#5', 'acme/api#6']);
    const ready = stored.find((x) => x.external_id === 'acme/api#5');
    expect(await docs.text(ready?.document_id ?? '')).toContain('Now ready');
    // A second pass finds nothing new: nothing stored twice.
    expect(await codeHostPass('pulls', options('acme/api'))).toMatchObject({ stored: 0, failed: 0 });
  });

  it('19 WS-522 WS-523 the service starts a code-host worker only for a non-empty list, and stopping it ends its pass', async () => {
    seed();
    const log = { info: () => {}, warn: () => {} };
    const base = { GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN, DOCUMENTS_URL: docs.url };
    // Nothing configured: nothing started, nothing read.
    await startConnectors(workspaceConfig(base), database, log)();
    expect(github.requests).toEqual([]);
    // The pull-request worker with one repository: its first pass runs, stop waits for it.
    const stop = startConnectors(workspaceConfig({ ...base, CODE_HOST_PULLS_REPOSITORIES: 'acme/api' }), database, log);
    await stop();
    expect(new Set(github.requests.map((r) => r.split('?')[0]))).toEqual(
      new Set(['/repos/acme/api', '/repos/acme/api/pulls']),
    );
    expect((await rows()).map((r) => r.external_id)).toEqual(['acme/api#1']);
  });
});
