import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityConfig, startIdentity } from '@platform/identity';
import { closePglite, freePort, MemoryBus, openPglite } from '@platform/kit';
import { type FakeKubernetes, startFakeKubernetes } from '@platform/kit/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { consoleAuthenticator } from '../src/auth.ts';
import { consoleConfig } from '../src/config.ts';
import { registryFromConfig } from '../src/start.ts';
import { ensureWebBuilt } from '../src/web/build.ts';
import { fakeHelm, release } from './fakes/helm.ts';

/**
 * The web UI in a real browser (Debian's chromium driven by playwright-core, which never downloads
 * one) against the real console app and the real identity service as the local access-gateway
 * stand-in: sign-in is one click on a dev principal, and every call carries the gateway token.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && (process.env.CI === 'true' || process.env.REQUIRE_REAL_INFRA === '1')) {
  throw new Error(`the browser test needs chromium at ${CHROMIUM} (apt-get install -y chromium)`);
}
if (!haveChromium) console.warn(`skipping the console's browser test: no chromium at ${CHROMIUM}`);

const SHIPPED_CLIENTS = join(import.meta.dirname, '..', '..', '..', 'config', 'clients');
const ADMIN = 'admin@dev.local';
const ENGINEER = 'senior@dev.local';
const VIEWER = 'controller@dev.local';

describe.skipIf(!haveChromium)('the console web UI in a real browser', () => {
  let dir: string;
  let identity: Awaited<ReturnType<typeof startIdentity>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let pglite: ReturnType<typeof openPglite>;
  let browser: Browser;
  let base: string;
  let cluster: FakeKubernetes;
  let helm: ReturnType<typeof fakeHelm>;
  let bus: MemoryBus;

  beforeAll(async () => {
    await ensureWebBuilt();
    dir = mkdtempSync(join(tmpdir(), 'console-web-'));
    const consolePort = await freePort();
    const identityPort = await freePort();
    base = `http://127.0.0.1:${consolePort}`;
    const issuer = `http://127.0.0.1:${identityPort}`;

    // The shipped local client file, the console's client answering on this test's port.
    const clients = join(dir, 'clients');
    mkdirSync(clients);
    const local = JSON.parse(readFileSync(join(SHIPPED_CLIENTS, 'local.json'), 'utf8')) as {
      clients: { client_id: string; redirect_uris: string[]; post_logout_redirect_uris: string[] }[];
    };
    const web = local.clients.find((c) => c.client_id === 'console-web');
    if (!web) throw new Error('config/clients/local.json has no console-web client');
    web.redirect_uris = [`${base}/callback`];
    web.post_logout_redirect_uris = [`${base}/`];
    writeFileSync(join(clients, 'local.json'), JSON.stringify(local));

    // us/core's cluster: the kit's fake API server; Helm is the fake helm on the same kubeconfig.
    cluster = await startFakeKubernetes();
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, cluster.kubeconfig());
    cluster.seed({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'apps', labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'web:1' }] },
    });
    // Status is the kubelet's to write, never the creator's.
    cluster.setStatus('Pod', 'apps', 'web-1', { phase: 'Running' });
    cluster.appendLog('apps', 'web-1', ['booted', 'listening on 8080']);
    helm = fakeHelm([release('apps', 'web', 3)]);
    process.env.FAKE_HELM_STATE = helm.env.FAKE_HELM_STATE;
    process.env.FAKE_HELM_CALLS = helm.env.FAKE_HELM_CALLS;

    // One embedded platform as `npm start` runs it: identity and the console share PGlite and bus.
    pglite = openPglite(join(dir, 'pglite'));
    bus = new MemoryBus();
    identity = await startIdentity(
      identityConfig({
        PORT_IDENTITY: String(identityPort),
        AUTH_ISSUER: issuer,
        PLATFORM_DATA_DIR: dir,
        CLIENTS_DIR: clients,
        CLIENTS_ENV: 'local',
        DEV_AUTH: '1',
        SEED_DEV_PRINCIPALS: '1',
        GATEWAY_AUDIENCES: 'console-app',
        SERVICE_TOKEN: 'console-web-test-token',
        LOG_LEVEL: 'silent',
      }),
      { pglite, bus },
    );
    const config = consoleConfig({
      ENV: 'dev',
      LOG_LEVEL: 'silent',
      CONSOLE_ACCESS_AUD: 'console-app',
      GATEWAY_JWKS_URL: `${issuer}/gateway/certs`,
      GATEWAY_ISSUER: `${issuer}/gateway`,
      DEVOPS_ADMIN_EMAILS: ADMIN,
      DEVOPS_ENGINEER_EMAILS: ENGINEER,
      CONSOLE_WEB_SIGN_IN_URL: issuer,
      US_CORE_KUBECONFIG: kubeconfig,
      HELM_BIN: helm.bin,
    });
    app = await buildApp({
      config,
      authenticator: consoleAuthenticator(config),
      registry: registryFromConfig(config, { pglite, bus }),
    });
    await app.listen({ port: consolePort, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await identity?.close();
    await cluster?.close();
    if (pglite) await closePglite(await pglite);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh browser signed in through identity as one dev principal (one click on its button). */
  async function signedIn(email: string): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // What the console's own origin fails to serve (identity's pages are not under test here).
    page.on('response', (r) => {
      if (r.status() >= 400 && r.url().startsWith(base)) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${base}/`);
    await page
      .getByRole('button', { name: 'Sign in' })
      .click({ timeout: 20_000 })
      .catch(async (e: unknown) => {
        throw new Error(`no sign-in button: ${await page.content()} ${errors.join('; ')} (${String(e)})`);
      });
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.locator(`button[name="email"][value="${email}"]`).click();
    await page
      .getByRole('heading', { name: 'Environments' })
      .waitFor({ timeout: 20_000 })
      .catch(async (e: unknown) => {
        throw new Error(`not signed in at ${page.url()}: ${await page.locator('body').innerText()} (${String(e)})`);
      });
    return { page, context, errors };
  }

  it('21 OPS-005 OPS-006 OPS-009 sign-in through identity, then the environments page lists every subscription with its role', async () => {
    const { page, context, errors } = await signedIn(ADMIN);
    try {
      expect(new URL(page.url()).pathname).toBe('/');
      await expect.poll(() => page.getByTestId('env').textContent()).toBe('dev');
      await expect.poll(() => page.getByTestId('who').textContent()).toContain('admin');
      const table = page.getByRole('table', { name: 'Subscriptions' });
      await table.waitFor();
      const rows = await table.locator('tbody tr').allTextContents();
      expect(rows.some((r) => r.startsWith('uscore'))).toBe(true);
      // eu/core is not provisioned locally: listed, not ready.
      expect(rows.find((r) => r.startsWith('eucore'))).toMatch(/^eucoreno/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('21 OPS-044 a viewer signed in sees the viewer role', async () => {
    const { page, context } = await signedIn(VIEWER);
    try {
      await expect.poll(() => page.getByTestId('who').textContent()).toContain('viewer');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('21 OPS-062 OPS-064 OPS-065 a 501 surface shows the not-configured panel: flags on eu/core, log search without keys', async () => {
    const { page, context, errors } = await signedIn(ADMIN);
    try {
      await page.goto(`${base}/#/eu/core/flags`);
      await page.getByRole('heading', { name: 'Feature flags' }).waitFor();
      const panel = page.getByTestId('not-configured');
      await panel.waitFor();
      expect(await panel.innerText()).toContain('flags_not_configured');
      await page.getByRole('link', { name: 'Log search' }).click();
      await page.getByRole('heading', { name: 'Log search' }).waitFor();
      await page.getByTestId('not-configured').waitFor();
      expect(await page.getByTestId('not-configured').innerText()).toContain('logs_not_configured');
      // The page's own calls answered 501, nothing else failed.
      expect(errors.filter((e) => !e.startsWith('501 '))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('21 OPS-057 an admin rolls a release back only after confirming, and Helm runs then', async () => {
    const { page, context } = await signedIn(ADMIN);
    try {
      await page.goto(`${base}/#/us/core/releases`);
      await page.getByRole('table', { name: 'Releases' }).waitFor();
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByRole('table', { name: 'Release history' }).waitFor();
      const before = helm.calls().filter((c) => c.includes('rollback')).length;
      await page.getByRole('button', { name: 'Roll back to 2' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm rollback' });
      await dialog.waitFor();
      // Asking is not doing: nothing ran yet.
      expect(helm.calls().filter((c) => c.includes('rollback')).length).toBe(before);
      await dialog.getByLabel('Why').fill('bad deploy');
      await dialog.getByRole('button', { name: 'Confirm rollback' }).click();
      await page.getByText('Rolled web back to revision 2.').waitFor();
      const rollbacks = helm.calls().filter((c) => c.includes('rollback'));
      expect(rollbacks.length).toBe(before + 1);
      expect(rollbacks.at(-1)).toEqual(expect.arrayContaining(['rollback', 'web', '2']));
    } finally {
      await context.close();
    }
  }, 60_000);

  it('21 OPS-057 OPS-039 OPS-044 controls above the caller role are hidden: a viewer and an engineer see history but no rollback', async () => {
    for (const [email, role] of [
      [VIEWER, 'viewer'],
      [ENGINEER, 'engineer'],
    ] as const) {
      const { page, context } = await signedIn(email);
      try {
        await expect.poll(() => page.getByTestId('who').textContent()).toContain(role);
        await page.goto(`${base}/#/us/core/releases`);
        await page.getByRole('button', { name: 'History' }).click();
        const history = page.getByRole('table', { name: 'Release history' });
        await history.waitFor();
        expect(await history.locator('tbody tr').count()).toBeGreaterThan(1);
        expect(await page.getByRole('button', { name: /Roll back/ }).count()).toBe(0);
      } finally {
        await context.close();
      }
    }
  }, 90_000);

  it('21 OPS-014 OPS-017 OPS-050 pods from the fake cluster, a pod tailed over SSE with the token in its URL, a new line arrives', async () => {
    const { page, context } = await signedIn(VIEWER);
    const tails: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/logs/tail')) tails.push(r.url());
    });
    try {
      await page.goto(`${base}/#/us/core/pods`);
      const pods = page.getByRole('table', { name: 'Pods' });
      await pods.waitFor();
      const row = pods.locator('tbody tr', { hasText: 'web-1' });
      await row.waitFor();
      expect(await row.innerText()).toContain('apps');
      // A viewer gets no terminal.
      expect(await row.getByRole('link', { name: 'Terminal' }).count()).toBe(0);
      await row.getByRole('button', { name: 'Tail' }).click();
      const tail = page.getByTestId('tail');
      await expect.poll(() => tail.innerText(), { timeout: 20_000 }).toContain('listening on 8080');
      await cluster.untilStreams((o) => o.follows > 0);
      cluster.appendLog('apps', 'web-1', 'GET /healthz 200');
      await expect.poll(() => tail.innerText(), { timeout: 20_000 }).toContain('GET /healthz 200');
      // EventSource cannot set headers: the gateway token rode as access_token.
      expect(new URL(tails[0] ?? '').searchParams.get('access_token')).toMatch(/^ey/);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('21 OPS-014 OPS-017 a namespace tail by label selector tags each line with its pod', async () => {
    const { page, context } = await signedIn(VIEWER);
    try {
      await page.goto(`${base}/#/us/core/pods`);
      await page.getByRole('textbox', { name: 'Namespace' }).fill('apps');
      await page.getByRole('textbox', { name: 'Selector' }).fill('app=web');
      await page.getByRole('button', { name: 'Follow' }).click();
      const tail = page.getByTestId('tail');
      await expect.poll(() => tail.innerText(), { timeout: 20_000 }).toContain('[web-1] listening on 8080');
      await cluster.untilStreams((o) => o.follows > 0);
      cluster.appendLog('apps', 'web-1', 'namespace tail line');
      await expect.poll(() => tail.innerText(), { timeout: 20_000 }).toContain('[web-1] namespace tail line');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('21 OPS-015 OPS-056 an admin opens a terminal (xterm over the exec WebSocket) and the shell echoes', async () => {
    const { page, context } = await signedIn(ADMIN);
    try {
      await page.goto(`${base}/#/us/core/pods`);
      const row = page.getByRole('table', { name: 'Pods' }).locator('tbody tr', { hasText: 'web-1' });
      await row.getByRole('link', { name: 'Terminal' }).click();
      await expect.poll(() => page.getByTestId('terminal-state').innerText(), { timeout: 20_000 }).toBe('open');
      await page.locator('.xterm-helper-textarea').focus();
      await page.keyboard.type('echo console-web-ok');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.xterm-rows').innerText(), { timeout: 20_000 }).toContain('console-web-ok');
      expect(cluster.execs.length).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('21 OPS-045 OPS-058 OPS-059 the outbox of the embedded platform: an admin republishes after confirming; a viewer has no republish control', async () => {
    const db = (await pglite).pg;
    const eventId = '0190f7a2-3c4d-7e8f-9a0b-1c2d3e4f5a6b';
    await db.query(
      `INSERT INTO identity.outbox (event_id, subject, event_type, payload, published_at)
       VALUES ($1, 'person.x', 'person.created', '{}'::jsonb, now())`,
      [eventId],
    );
    const viewer = await signedIn(VIEWER);
    try {
      await viewer.page.goto(`${base}/#/us/core/outbox/identity`);
      const events = viewer.page.getByRole('table', { name: 'Outbox events' });
      await events.locator('tbody tr', { hasText: eventId }).waitFor();
      expect(await viewer.page.getByRole('button', { name: 'Republish' }).count()).toBe(0);
    } finally {
      await viewer.context.close();
    }
    const admin = await signedIn(ADMIN);
    try {
      await admin.page.goto(`${base}/#/us/core/outbox`);
      await admin.page
        .getByRole('table', { name: 'Outbox counts' })
        .locator('tbody tr', { hasText: 'identity' })
        .waitFor();
      await admin.page.goto(`${base}/#/us/core/outbox/identity`);
      const row = admin.page.getByRole('table', { name: 'Outbox events' }).locator('tbody tr', { hasText: eventId });
      await row.getByRole('button', { name: 'Republish' }).click();
      const dialog = admin.page.getByRole('dialog', { name: 'Confirm republish' });
      await dialog.getByLabel('Why').fill('subscriber missed it');
      await dialog.getByRole('button', { name: 'Confirm republish' }).click();
      await admin.page.getByText(`Republished ${eventId}`).waitFor();
      const after = await db.query<{ republished: number }>(
        'SELECT count(*)::int AS republished FROM identity.outbox WHERE event_id = $1',
        [eventId],
      );
      expect(after.rows[0]?.republished).toBe(1);
    } finally {
      await admin.context.close();
    }
  }, 120_000);

  it('21 OPS-046 OPS-047 a viewer reads through the SQL browser; a write is refused with its code and changes nothing', async () => {
    const db = (await pglite).pg;
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM identity.outbox')).rows[0]?.n ?? -1;
    const before = await count();
    const { page, context } = await signedIn(VIEWER);
    try {
      await page.goto(`${base}/#/us/core/sql`);
      const sql = page.getByRole('textbox', { name: 'SQL' });
      await sql.fill('SELECT count(*)::int AS events, 42 AS answer FROM identity.outbox');
      await page.getByRole('button', { name: 'Run' }).click();
      const result = page.getByRole('table', { name: 'SQL result' });
      await result.waitFor();
      expect(await result.locator('thead').innerText()).toMatch(/events\s+answer/);
      expect((await result.locator('tbody tr').innerText()).split(/\s+/)).toEqual([String(before), '42']);
      await sql.fill('DELETE FROM identity.outbox');
      await page.getByRole('button', { name: 'Run' }).click();
      const refused = page.getByRole('alert');
      await refused.waitFor();
      expect(await refused.innerText()).toMatch(/^4\d\d sql_/);
      expect(await count()).toBe(before);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('21 OPS-048 OPS-049 a viewer sees the in-process bus and peeks its last message, which stays there', async () => {
    const id = '0190f7a2-3c4d-7e8f-9a0b-aaaaaaaaaaaa';
    await bus.publish([{ id, subject: 'console.web_peeked', data: { n: 7 } }]);
    const { page, context } = await signedIn(VIEWER);
    try {
      await page.goto(`${base}/#/us/core/bus`);
      await expect.poll(() => page.getByTestId('bus-kind').textContent()).toContain('in-process');
      const streams = page.getByRole('table', { name: 'Streams' });
      const before = await streams.locator('tbody tr').first().innerText();
      await streams.getByRole('button', { name: 'Peek last' }).first().click();
      await expect.poll(() => page.getByTestId('peeked').innerText()).toContain('console.web_peeked');
      expect(await page.getByTestId('peeked').innerText()).toContain(id);
      // A peek is a direct get: the stream's figures are as they were.
      await page.reload();
      await page.getByRole('table', { name: 'Streams' }).waitFor();
      expect(await page.getByRole('table', { name: 'Streams' }).locator('tbody tr').first().innerText()).toBe(before);
    } finally {
      await context.close();
    }
  }, 90_000);
});
