import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banner, constructionLocalEnv, launch, withNeighbours } from '../src/launcher.ts';
import { throwawayEnv } from '../src/openapi.ts';
import { withNeeds } from '../src/services.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'platform-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm start`'s entry point, as `npm start` runs it (the workspaces' sources, not their builds). */
const MAIN = ['--conditions=source', '--import', 'tsx', 'apps/platform/src/main.ts'];

/** Starts `npm start`'s entry point with the given service names; resolves with its output once up. */
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...MAIN, ...args], {
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
  const waiting = new Set<() => void>();
  /** Resolves with everything printed so far once `test` holds for it (or the process ends). */
  const waitFor = (test: (out: string) => boolean) =>
    new Promise<string>((resolve) => {
      const check = () => {
        if (!test(out) && child.exitCode === null) return;
        waiting.delete(check);
        resolve(out);
      };
      waiting.add(check);
      check();
    });
  const printed = (d: Buffer) => {
    out += d;
    for (const check of [...waiting]) check();
  };
  child.stdout?.on('data', printed);
  child.stderr?.on('data', printed);
  const done = new Promise<{ child: ChildProcess; out: string; code: number | null; waitFor: typeof waitFor }>(
    (resolve) => {
      waitFor((o) => o.includes('Data:')).then((o) => resolve({ child, out: o, code: child.exitCode, waitFor }));
      child.on('exit', (code) => {
        for (const check of [...waiting]) check();
        resolve({ child, out, code, waitFor });
      });
    },
  );
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

describe('npm start output', () => {
  let run: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    // Workspace and broker serve /api-docs only with SWAGGER_ON=1; identity always does.
    run = await start(['workspace', 'broker'], { PORT_WORKSPACE: '0', PORT_BROKER: '0', LOG_LEVEL: 'info' });
  }, 240_000);
  afterAll(async () => {
    if (run?.code === null) await stop(run.child);
  });
  const banner = () => run.out.slice(run.out.indexOf('Platform is up:'));
  const serviceUrl = (name: string) =>
    new RegExp(`^  ${name}\\s+(http://127\\.0\\.0\\.1:\\d+)`, 'm').exec(banner())?.[1] as string;

  it('13.6 the banner names /api-docs only for services whose docs answer', async () => {
    expect(run.code, run.out).toBeNull();
    // What the banner offers to open: every URL except request bodies' targets (POST) and SDK base URLs.
    const offered = banner()
      .split('\n')
      .filter((line) => !line.includes('-X POST') && !line.trimStart().startsWith('-d '))
      .flatMap((line) => [...line.matchAll(/(?<!base URL )(http:\/\/127\.0\.0\.1:\d+[^\s'",]*)/g)].map((m) => m[1]));
    expect(offered.length).toBeGreaterThan(5);
    for (const url of new Set(offered)) {
      const r = await fetch(url as string, { headers: { 'x-dev-principal': 'admin@dev.local' } });
      expect(r.status, `${url} answers`).not.toBe(404);
    }
    expect(banner()).toContain(`${serviceUrl('identity')}/api-docs`);
    expect(banner()).not.toContain(`${serviceUrl('workspace')}/api-docs`);
    expect(banner()).not.toContain(`${serviceUrl('broker')}/api-docs`);
  });

  it('13.6 npm start logs one short line per request and leaves health checks out at info', async () => {
    const workspace = serviceUrl('workspace');
    for (const path of ['/healthz', '/readyz']) expect((await fetch(`${workspace}${path}`)).status).toBe(200);
    const listed = await fetch(`${workspace}/v1/projects?q=probe-13-6`, {
      headers: { 'x-dev-principal': 'admin@dev.local' },
    });
    expect(listed.status).toBe(200);
    // The service's log lines come in request order: once the probe's line is out, the health checks' would be too.
    const out = await run.waitFor((o) => /q=probe-13-6[^\n]*\n/.test(o));
    const lines = out.split('\n');
    const probe = lines.filter((l) => l.includes('q=probe-13-6'));
    expect(probe, out).toHaveLength(1);
    expect(probe[0]).toMatch(/GET \/v1\/projects\?q=probe-13-6 200 \d+(\.\d+)?ms/);
    expect(probe[0]).not.toMatch(/^\{/);
    expect(
      lines.filter((l) => /\/(healthz|readyz)\b/.test(l)),
      out,
    ).toEqual([]);
  });
});

describe('npm start -- construction', () => {
  const constructionDir = mkdtempSync(join(tmpdir(), 'platform-construction-'));
  let platform: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    platform = await launch(['construction'], {
      ...process.env,
      ...throwawayEnv(constructionDir),
      LOG_LEVEL: 'silent',
      DEV_AUTH: '1',
    });
  }, 240_000);
  afterAll(async () => {
    await platform?.close();
    rmSync(constructionDir, { recursive: true, force: true });
  });
  const url = (name: string) => platform.started.find((s) => s.name === name)?.url as string;
  const post = async (base: string, path: string, data: object) => {
    const r = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-dev-principal': 'admin@dev.local',
        'idempotency-key': `launcher-${path}-${Date.now()}-${Math.random()}`,
      },
      body: JSON.stringify({ data }),
    });
    return { status: r.status, body: (await r.json()) as { payload: { data: Record<string, unknown> } } };
  };

  it('17 construction starts with what it needs: identity, vendors and documents', () => {
    expect(withNeeds(['construction'])).toEqual(['identity', 'vendors', 'documents', 'construction']);
    expect(platform.started.map((s) => s.name)).toEqual(['identity', 'vendors', 'documents', 'construction']);
    // The banner says who may change construction records and how to call it.
    const text = banner(platform.started, platform.env);
    expect(text).toContain('CONSTRUCTION_EDITORS (admin@dev.local)');
    expect(text).toContain(`${url('construction')}/v1/development-projects`);
  });

  it("17 construction gets the vendors' and documents' addresses unless its settings name others", () => {
    const started = platform.started;
    expect(withNeighbours('construction', {}, started)).toMatchObject({
      CONSTRUCTION_VENDORS_URL: url('vendors'),
      CONSTRUCTION_DOCUMENTS_URL: url('documents'),
    });
    expect(
      withNeighbours('construction', { CONSTRUCTION_VENDORS_URL: 'http://vendors.example' }, started)
        .CONSTRUCTION_VENDORS_URL,
    ).toBe('http://vendors.example');
  });

  it('17 one vendors service token for both sides; the dev admin edits construction locally', () => {
    expect(platform.env.CONSTRUCTION_VENDORS_SERVICE_TOKEN).toBeTruthy();
    expect(platform.env.CONSTRUCTION_VENDORS_SERVICE_TOKEN).toBe(platform.env.VENDORS_SERVICE_TOKEN);
    expect(platform.env.CONSTRUCTION_EDITORS).toBe('admin@dev.local');
    expect(constructionLocalEnv({ CONSTRUCTION_VENDORS_SERVICE_TOKEN: 'given' }).VENDORS_SERVICE_TOKEN).toBe('given');
    expect(
      constructionLocalEnv({ CONSTRUCTION_VENDORS_SERVICE_TOKEN: 'c', VENDORS_SERVICE_TOKEN: 'v' })
        .VENDORS_SERVICE_TOKEN,
    ).toBeUndefined();
    expect(constructionLocalEnv({ DEV_AUTH: '0' }).CONSTRUCTION_EDITORS).toBe('');
  });

  it('17 CON-163 a firm added in the vendors service is put on a construction project through npm start', async () => {
    const tag = `${Date.now()}`;
    const firm = await post(url('vendors'), '/v1/vendors', {
      name: `Launcher Studio ${tag}`,
      kind: 'consultant',
      discipline: 'architecture',
    });
    expect(firm.status, JSON.stringify(firm.body)).toBe(201);
    const project = await post(url('construction'), '/v1/development-projects', {
      code: `L-${tag}`,
      name: 'Launcher project',
      kind: 'ground_up',
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const assigned = await post(url('construction'), `/v1/vendors/${firm.body.payload.data.id}/assignments`, {
      project_id: project.body.payload.data.id,
      role: 'architect',
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    const listed = await fetch(
      `${url('construction')}/v1/development-projects/${project.body.payload.data.id}/vendors`,
      {
        headers: { 'x-dev-principal': 'admin@dev.local' },
      },
    );
    const firms = ((await listed.json()) as { payload: { data: { name: string | null }[] } }).payload.data;
    expect(firms.map((f) => f.name)).toEqual([`Launcher Studio ${tag}`]);
  });
});
