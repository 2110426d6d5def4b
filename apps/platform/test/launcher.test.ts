import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'platform-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts `npm start`'s entry point with the given service names; resolves with its output once up. */
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/platform/src/main.ts', ...args], {
    cwd: root,
    env: {
      ...process.env,
      PLATFORM_DATA_DIR: dataDir,
      PORT_ACCOUNTING: '0',
      PORT_IDENTITY: '0',
      LOG_LEVEL: 'warn',
      DEV_AUTH: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const done = new Promise<{ child: ChildProcess; out: string; code: number | null }>((resolve) => {
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('Data:')) resolve({ child, out, code: null });
    });
    child.stderr?.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => resolve({ child, out, code }));
  });
  return done;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });

describe('embedded launcher', () => {
  it('starts the named service with dev auth on, prints its URL and docs, and keeps data across a restart', async () => {
    const first = await start(['accounting']);
    const url = /accounting\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(first.out)?.[1];
    expect(url, first.out).toBeTruthy();
    expect(first.out).toContain('/api-docs');
    expect(first.out).toContain('X-Dev-Principal');
    const created = await fetch(`${url}/v1/legal-entities`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-dev-principal': 'controller@dev.local',
        'idempotency-key': 'launcher-test-1',
      },
      body: JSON.stringify({ data: { name: 'Persisted', chart_code: 'US', status: 'active' } }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { payload: { data: { id: string } } }).payload.data.id;
    await stop(first.child);

    const second = await start(['accounting']);
    const url2 = /accounting\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(second.out)?.[1];
    const read = await fetch(`${url2}/v1/legal-entities/${id}`, {
      headers: { 'x-dev-principal': 'controller@dev.local' },
    });
    expect(read.status).toBe(200);
    await stop(second.child);
  }, 240_000);

  it('refuses an unknown service name, naming it', async () => {
    const r = await start(['nosuch']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('nosuch');
  });

  it('a bad setting stops start-up with a message naming the variable', async () => {
    const r = await start(['accounting'], { PORT_ACCOUNTING: 'eighty' });
    expect(r.code).toBe(2);
    expect(r.out).toContain('PORT_ACCOUNTING');
  });
});
