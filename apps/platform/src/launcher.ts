import { ConfigError, closePglite, MemoryBus, NatsBus, openPglite } from '@platform/kit';
import { localAuthEnv } from './local-auth.ts';
import { pgliteDir, SERVICES, type Started, withNeeds } from './services.ts';

/**
 * The embedded platform: every named service (default: all) in one process, on one PGlite in
 * PLATFORM_DATA_DIR (a schema per service) and one in-process bus, unless DATABASE_URL / BUS_URL
 * point at real infrastructure. Dev headers are on by default here (DEV_AUTH=1).
 */
export async function launch(
  names: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ started: Started[]; env: NodeJS.ProcessEnv; close(o?: { graceMs?: number }): Promise<void> }> {
  const unknown = names.filter((n) => !(n in SERVICES));
  if (unknown.length) {
    throw new ConfigError(`Unknown service(s): ${unknown.join(', ')}. Known: ${Object.keys(SERVICES).join(', ')}`);
  }
  const chosen = withNeeds(names.length ? names : Object.keys(SERVICES));
  const dev: NodeJS.ProcessEnv = { ...env, DEV_AUTH: env.DEV_AUTH || '1' };
  const base: NodeJS.ProcessEnv = { ...dev, ...constructionLocalEnv(dev) };
  const dataDir = base.PLATFORM_DATA_DIR || './.data';
  const auth = { ...base, ...(await localAuthEnv(base, dataDir)) };
  // Construction reads firms from vendors with the token vendors accepts.
  const merged: NodeJS.ProcessEnv = {
    ...auth,
    CONSTRUCTION_VENDORS_SERVICE_TOKEN: env.CONSTRUCTION_VENDORS_SERVICE_TOKEN || auth.VENDORS_SERVICE_TOKEN,
  };
  const pglite = merged.DATABASE_URL ? undefined : openPglite(pgliteDir(dataDir));
  // Each service declares its own topics and consumers (its bus topology) as it starts.
  const bus = merged.BUS_URL ? await NatsBus.connect(merged.BUS_URL) : new MemoryBus();
  const started: Started[] = [];
  for (const name of chosen) {
    const env = withNeighbours(name, merged, started);
    started.push(await (SERVICES[name] as (typeof SERVICES)[string]).start(env, { pglite, bus }));
  }
  return {
    started,
    /** The settings every service was started with (the embedded defaults filled in). */
    env: merged,
    /** Every service stops at once (each lets its requests in flight finish within `graceMs`), then the shared bus and database. */
    async close(o?: { graceMs?: number }) {
      const stopped = await Promise.allSettled(started.map((s) => s.close(o)));
      await bus.close();
      if (pglite) await closePglite(await pglite);
      const failed = stopped.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}

/**
 * The addresses a service takes from one started before it, unless its settings name another: the
 * broker saves API-credential calls as conversations in the workspace (spec 3, "Saved
 * conversations"), and the workspace keeps saved outputs' files in the documents service (its
 * two-step upload). Both calls use the platform's one service token.
 */
const NEIGHBOURS: Record<string, Record<string, string>> = {
  broker: { WORKSPACE_URL: 'workspace' },
  workspace: { DOCUMENTS_URL: 'documents' },
  construction: { CONSTRUCTION_VENDORS_URL: 'vendors', CONSTRUCTION_DOCUMENTS_URL: 'documents' },
  agents: { AGENTS_BROKER_URL: 'broker', AGENTS_DOCUMENTS_URL: 'documents', AGENTS_WORKSPACE_URL: 'workspace' },
};

/**
 * Embedded construction's settings, each overridable: the gateway stand-in's construction-app
 * audience; with dev headers on, the dev admin (admin@dev.local) as the one editor, as for
 * vendors; and one vendors service token for both sides: CONSTRUCTION_VENDORS_SERVICE_TOKEN given
 * alone becomes vendors' VENDORS_SERVICE_TOKEN too, and with neither given both get the platform's
 * generated service token (localAuthEnv).
 */
export function constructionLocalEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    CONSTRUCTION_ACCESS_AUD: env.CONSTRUCTION_ACCESS_AUD || 'construction-app',
    AGENTS_ACCESS_AUD: env.AGENTS_ACCESS_AUD || 'agents-app',
    CONSOLE_ACCESS_AUD: env.CONSOLE_ACCESS_AUD || 'console-app',
    // The console's us/core is the launcher's own platform: its database and bus when real ones are
    // set (embedded, the shared PGlite and in-process bus are handed over instead).
    ...(env.DATABASE_URL && !env.US_CORE_DATABASE_URL ? { US_CORE_DATABASE_URL: env.DATABASE_URL } : {}),
    ...(env.BUS_URL && !env.US_CORE_BUS_URL ? { US_CORE_BUS_URL: env.BUS_URL } : {}),
    CONSTRUCTION_EDITORS: env.CONSTRUCTION_EDITORS ?? (env.DEV_AUTH === '1' ? 'admin@dev.local' : ''),
    ...(env.CONSTRUCTION_VENDORS_SERVICE_TOKEN && !env.VENDORS_SERVICE_TOKEN
      ? { VENDORS_SERVICE_TOKEN: env.CONSTRUCTION_VENDORS_SERVICE_TOKEN }
      : {}),
  };
}

export function withNeighbours(name: string, env: NodeJS.ProcessEnv, started: Started[]): NodeJS.ProcessEnv {
  const set: Record<string, string> = {};
  for (const [key, neighbour] of Object.entries(NEIGHBOURS[name] ?? {})) {
    const s = started.find((x) => x.name === neighbour);
    if (s && !env[key]) set[key] = s.url;
  }
  return { ...env, ...set };
}

export function banner(started: Started[], env: NodeJS.ProcessEnv): string {
  const devAuth = (env.DEV_AUTH ?? '1') !== '0';
  const lines = ['', 'Platform is up:', ''];
  for (const s of started) {
    const docs = s.apiDocs ? `    docs ${s.url}/api-docs` : '';
    lines.push(`  ${s.name.padEnd(12)} ${s.url}${docs}    spec ${s.url}/openapi.json`);
  }
  lines.push('');
  const accounting = started.find((s) => s.name === 'accounting');
  const identity = started.find((s) => s.name === 'identity');
  if (devAuth && (accounting || identity)) {
    lines.push('Call as a dev principal (DEV_AUTH=1; see config/dev-principals.json):');
    if (accounting) {
      lines.push(`  curl -H 'X-Dev-Principal: controller@dev.local' ${accounting.url}/v1/accounts`);
      lines.push(
        `  curl -X POST -H 'X-Dev-Principal: controller@dev.local' -H "Idempotency-Key: $(date +%s%N)" -H 'content-type: application/json' \\`,
      );
      lines.push(
        `       -d '{"data":{"name":"Acme Holdings","chart_code":"US","status":"active"}}' ${accounting.url}/v1/legal-entities`,
      );
    } else if (identity) {
      lines.push(`  curl -H 'X-Dev-Principal: controller@dev.local' ${identity.url}/v1/authz/me`);
    }
  }
  const documents = started.find((s) => s.name === 'documents');
  if (documents && !env.DOCUMENTS_STORAGE_CATALOG && !env.DOCUMENTS_STORAGE_CATALOG_FILE) {
    lines.push('');
    lines.push('Uploads go to the Azurite emulator (accounts local, local-multi; see README "Uploading files"):');
    lines.push(
      `  curl -X POST -H 'content-type: application/json' -d '{"filename":"plan.pdf","visibility":"private","storage_account":"local"}' ${documents.url}/v1/documents/sas`,
    );
  }
  const broker = started.find((s) => s.name === 'broker');
  if (broker) {
    lines.push('');
    lines.push(
      `Model broker: providers from OPENAI_BASE_URL/OPENAI_API_KEY and ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY; SDKs' base URL ${broker.url}/v1/relay`,
    );
    lines.push(
      `  catalog ${broker.url}/v1/catalog    credentials ${broker.url}/v1/credentials/mine (README "Model broker")`,
    );
  }
  const construction = started.find((s) => s.name === 'construction');
  if (construction) {
    lines.push('');
    lines.push(
      `Construction: editors are CONSTRUCTION_EDITORS (${env.CONSTRUCTION_EDITORS || 'nobody'}); gates, firms and attachments in README "Construction"`,
    );
    lines.push(`  curl -H 'X-Dev-Principal: admin@dev.local' ${construction.url}/v1/development-projects`);
  }
  if (identity) {
    lines.push('');
    lines.push(`Sign in (OAuth 2.0 + PKCE): issuer ${identity.url}, clients in config/clients/local.json`);
    lines.push(`  discovery ${identity.url}/.well-known/openid-configuration    (see README "Signing in locally")`);
  }
  lines.push(
    `Data: ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `${env.PLATFORM_DATA_DIR || './.data'} (PGlite)`}`,
  );
  return lines.join('\n');
}
