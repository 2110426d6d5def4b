import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usageSliceMs, usageSliceRows, usageSyncCommit } from '../../broker/src/relay/usage-recorder.ts';
import { UsageJournal } from '../../broker/src/store/usage-journal.ts';
import type { FakeRequest } from '../../broker/test/fakes/providers.ts';
import { relayHarness } from '../../broker/test/relay-setup.ts';

/**
 * The daily-briefs bench's peers, in their own process so their work does not share the agents
 * service's event loop: the broker's app (its relay, authenticator, budget gate and usage
 * recorder, on in-memory PGlite, or on a fresh schema of TEST_POSTGRES_URL when the bench sets
 * it) in front of its fake provider answering every chat call after argv[0] ms (default 20)
 * with a brief citing the first fact it was given; and a fake workspace speaking workspace's wire
 * (envelopes) with a small fixed day per person: one project, two open tasks, one meeting. Sends {brokerUrl, workspaceUrl}; any message stops it.
 */
const delay = Number(process.argv[2] ?? 20);

const reply = (req: FakeRequest) => {
  const user = req.json.messages?.find((m: { role: string }) => m.role === 'user')?.content ?? '{}';
  const ids = (JSON.parse(user).data as { id: string }[]).map((d) => d.id);
  return {
    delay_ms: delay,
    text: JSON.stringify({
      headline: 'Two tasks are open; yesterday’s design sync made one decision',
      items: ids.slice(0, 3).map((source, i) => ({ source, text: `Point ${i + 1} of the day` })),
    }),
  };
};
// The usage recorder as the broker's app makes it (usage journal on, its default; slices on an
// embedded PGlite): a reply's end waits for its call's journal line, not for the commit.
const kind = process.env.TEST_POSTGRES_URL ? 'postgres' : 'pglite';
const journalDir = mkdtempSync(join(tmpdir(), 'briefs-bench-journal-'));
process.on('exit', () => rmSync(journalDir, { recursive: true, force: true }));
const opened = UsageJournal.open(journalDir);
opened.finish();
const broker = await relayHarness({
  fake: { record: false, script: reply },
  recorder: {
    journal: opened.journal,
    syncCommit: usageSyncCommit(kind, false),
    sliceRows: usageSliceRows(kind),
    sliceMs: usageSliceMs(kind),
  },
});

const P = '0192f000-0000-7000-8000-000000000001';
const day = (path: string): unknown => {
  if (path.startsWith('/v1/projects?')) return [{ id: P, name: 'Harbor tower' }];
  if (path.startsWith(`/v1/projects/${P}/items?`)) {
    return [1, 2].map((n) => ({
      id: `0192f000-0000-7000-8000-00000000010${n}`,
      title: `Task ${n}`,
      target_date: '2026-03-09',
      status: { id: 'in_progress', name: 'In progress', category: 'started' },
    }));
  }
  if (path.startsWith('/v1/me/unblock-requests') || path.startsWith('/v1/me/handoffs')) return [];
  if (path.startsWith('/v1/me/meetings?')) {
    return [
      {
        id: '0192f000-0000-7000-8000-000000000201',
        title: 'Design sync',
        kind: 'meeting',
        source: 'zoom',
        project_id: P,
        started_at: '2026-03-04T15:00:00.000Z',
        ended_at: '2026-03-04T16:00:00.000Z',
        duration_ms: 3_600_000,
        participants: ['Ana', 'Bo'],
        person_speakers: ['Ana'],
        line_count: 40,
        decisions_count: 1,
      },
    ];
  }
  return undefined;
};
const workspace = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const data = day(req.url ?? '/');
  if (data === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"header":{},"payload":{"errors":[]}}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ header: {}, payload: { data } }));
});
await new Promise<void>((r) => workspace.listen(0, '127.0.0.1', r));

process.send?.({
  brokerUrl: broker.url,
  workspaceUrl: `http://127.0.0.1:${(workspace.address() as AddressInfo).port}`,
});
process.on('message', async () => {
  workspace.closeAllConnections();
  workspace.close();
  await broker.close();
  process.exit(0);
});
