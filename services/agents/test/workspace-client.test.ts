import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { devFid } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVICE_TOKEN as WORKSPACE_TOKEN,
  type Harness as WorkspaceHarness,
  harness as workspaceHarness,
} from '../../workspace/test/harness.ts';
import { httpWorkspace, type WorkspaceReader } from '../src/clients/workspace.ts';

/**
 * The workspace reader (issue 20) against the real workspace app on a port: what briefs and
 * coaching read on a person's behalf, and how a failing workspace is told apart.
 */

const ANA = 'ana@reader.test';
const BO = 'bo@reader.test';
let ws: WorkspaceHarness;
let reader: WorkspaceReader;
let meetingId: string;

beforeAll(async () => {
  ws = await workspaceHarness({ now: '2026-11-23T15:00:00Z' });
  await ws.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(ws.app.server.address() as AddressInfo).port}`;
  reader = httpWorkspace({ baseUrl: url, serviceToken: WORKSPACE_TOKEN, timeoutMs: 10_000 });
  const p = await ws.project({ name: 'Reader project' }, ANA);
  const m = await ws.call('POST', '/v1/meetings', ANA, {
    data: { source: 'zoom', title: 'Long review', project_id: p.id, participants: [ANA, BO] },
  });
  ws.expectStatus('meeting', m, 201);
  meetingId = (m.data as { id: string }).id;
  // 250 lines: more than one page of the utterances route (200 at most).
  for (let start = 0; start < 250; start += 125) {
    const lines = Array.from({ length: 125 }, (_, i) => ({
      speaker: (start + i) % 2 === 0 ? ANA : 'Bo',
      text: `Line ${start + i + 1}`,
      start_ms: (start + i) * 1_000,
    }));
    ws.expectStatus(
      'lines',
      await ws.call('POST', `/v1/meetings/${meetingId}/utterances`, ANA, { data: { lines } }),
      201,
    );
  }
  ws.setNow('2026-11-23T16:00:00Z');
  ws.expectStatus(
    'decision',
    await ws.call('POST', `/v1/projects/${p.id}/decisions`, ANA, { data: { title: 'Go' } }),
    201,
  );
}, 120_000);

afterAll(async () => {
  ws.app.server.closeAllConnections();
  await ws.close_();
});

describe('the workspace reader', () => {
  it('20 AGT-283 meetingsWithUtterances reads the person’s meetings of a range with every line (paged through), their speaker names and decisions counted', async () => {
    const [m, ...rest] = await reader.meetingsWithUtterances(
      { email: ANA, id: devFid(ANA) },
      { from: '2026-11-23', to: '2026-11-23' },
    );
    expect(rest).toEqual([]);
    expect(m).toMatchObject({
      id: meetingId,
      title: 'Long review',
      participants: [ANA, BO],
      person_speakers: [ANA],
      line_count: 250,
      decisions_count: 1,
      duration_ms: 249_000,
    });
    expect(m?.utterances).toHaveLength(250);
    expect(m?.utterances.map((u) => u.seq)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(m?.utterances[1]).toEqual({ seq: 2, speaker: 'Bo', text: 'Line 2' });
    // Another person reads only their own: Bo took part by name only, not by email.
    expect(
      await reader.meetings(
        { email: 'cy@reader.test', id: devFid('cy@reader.test') },
        { from: '2026-11-23', to: '2026-11-23' },
      ),
    ).toEqual([]);
  });

  it('20 AGT-261 briefSources reads the person’s projects, tasks, unblock queue, handoffs and the day before’s meetings', async () => {
    const s = await reader.briefSources({ email: ANA, id: devFid(ANA) }, '2026-11-24');
    expect(s.projects.map((p) => p.name)).toEqual(['Reader project']);
    expect(s.meetings.map((m) => m.id)).toEqual([meetingId]);
    expect(s.tasks).toEqual([]);
    expect(s.unblock_requests).toEqual([]);
    expect(s.handoffs).toEqual([]);
  });

  it('20 AGT-266 a workspace that fails, hangs up or answers no envelope is 502 workspace_unavailable', async () => {
    const answers: [number, string][] = [
      [500, '{"error":"down"}'],
      [200, 'not json'],
      [200, '{"data":[]}'],
      [200, '{"header":{},"payload":{"data":[{"id":1}]}}'],
    ];
    let i = 0;
    const server: Server = createServer((_req, res) => {
      const [status, body] = answers[i++ % answers.length] ?? [500, ''];
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const bad = httpWorkspace({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      serviceToken: WORKSPACE_TOKEN,
      timeoutMs: 5_000,
    });
    try {
      for (let n = 0; n < answers.length; n++) {
        await expect(bad.projects({ email: ANA, id: devFid(ANA) }, 10)).rejects.toMatchObject({
          status: 502,
          code: 'workspace_unavailable',
        });
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
