import { logTo } from '@platform/kit';
import { gatewayKeys } from '@platform/kit/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { consoleAuthenticator } from '../src/auth.ts';
import { type ConsoleConfig, consoleConfig } from '../src/config.ts';
import type { EmbeddedInfrastructure, Registry } from '../src/registry/registry.ts';
import type { RouteDeps } from '../src/routes/deps.ts';
import { registryFromConfig } from '../src/start.ts';

export const GATEWAY_ISSUER = 'https://team.cloudflareaccess.test';
export const AUDIENCE = 'console-app';

/** The callers of the role matrix: one per list, both lists, neither, no token, a forged token. */
export const CALLERS = ['viewer', 'engineer', 'admin', 'both', 'none', 'forged'] as const;
export type Caller = (typeof CALLERS)[number];

export const EMAILS = {
  viewer: 'viewer@ops.test',
  engineer: 'engineer@ops.test',
  admin: 'admin@ops.test',
  both: 'both@ops.test',
  // Signed with a key outside the gateway's key set, naming the admin.
  forged: 'admin@ops.test',
} as const;

/** The role each caller holds (none and forged hold nothing: 401). */
export const ROLE_OF: Record<Caller, 'viewer' | 'engineer' | 'admin' | null> = {
  viewer: 'viewer',
  engineer: 'engineer',
  admin: 'admin',
  both: 'admin',
  none: null,
  forged: null,
};

/** The lists of the harness; mixed case, as operators type them (matched case-insensitively). */
export const ROLE_ENV = {
  DEVOPS_ADMIN_EMAILS: 'Admin@Ops.test, both@ops.test',
  DEVOPS_ENGINEER_EMAILS: 'engineer@ops.test,BOTH@ops.test',
};

/** Log lines written by the apps built while it is attached (tests read console.write lines). */
export class LogCapture {
  readonly lines: Record<string, unknown>[] = [];
  readonly raw: string[] = [];
  write(line: string) {
    this.raw.push(line);
    try {
      this.lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {}
  }
  /** The console.write lines so far. */
  writes() {
    return this.lines.filter((l) => l.event === 'console.write');
  }
}

export interface HarnessOptions {
  /** Variables on top of the harness's (scopes' variables, area settings). */
  env?: Record<string, string | undefined>;
  /** The embedded platform's database and bus standing for us/core. */
  embedded?: Omit<EmbeddedInfrastructure, 'region' | 'subscription'>;
  /** Route dependencies to replace (area clients, fakes). */
  extra?: Partial<RouteDeps>;
  clock?: () => Date;
  /** Replaces the registry (a test catalog); default: the committed files. */
  registry?: (config: ConsoleConfig) => Registry;
}

/**
 * A console app as production builds it, with a gateway key pair held by the test: tokens are
 * signed as the access gateway would (production verification unchanged), `forged` by a second
 * key pair the console does not trust.
 */
export async function consoleHarness(o: HarnessOptions = {}) {
  const keys = await gatewayKeys({ issuer: GATEWAY_ISSUER, audience: AUDIENCE });
  const forger = await gatewayKeys({ issuer: GATEWAY_ISSUER, audience: AUDIENCE });
  const config = consoleConfig({
    ENV: 'dev',
    LOG_LEVEL: 'info',
    CONSOLE_ACCESS_AUD: AUDIENCE,
    GATEWAY_ISSUER,
    ...ROLE_ENV,
    ...o.env,
  });
  const log = new LogCapture();
  logTo(log);
  const registry = o.registry
    ? o.registry(config)
    : registryFromConfig(config, { pglite: o.embedded?.pglite, bus: o.embedded?.bus });
  const app = (await buildApp({
    config,
    authenticator: consoleAuthenticator(config, { gatewayJwks: keys.jwks }),
    registry,
    clock: o.clock,
    extra: o.extra,
  })) as unknown as FastifyInstance;
  logTo(undefined);
  await app.ready();

  const tokens: Record<Exclude<Caller, 'none'>, string> = {
    viewer: await keys.token(EMAILS.viewer),
    engineer: await keys.token(EMAILS.engineer),
    admin: await keys.token(EMAILS.admin),
    both: await keys.token(EMAILS.both),
    forged: await forger.token(EMAILS.forged),
  };
  /** The gateway header of a caller ({} for none). */
  const headers = (who: Caller): Record<string, string> =>
    who === 'none' ? {} : { 'cf-access-jwt-assertion': tokens[who] };
  /** A write's headers: the caller's and an Idempotency-Key (inject sets the JSON type with a payload). */
  let n = 0;
  const writeHeaders = (who: Caller, key = `k-${Date.now()}-${++n}`) => ({
    ...headers(who),
    'idempotency-key': key,
  });
  return {
    app,
    config,
    registry,
    keys,
    tokens,
    headers,
    writeHeaders,
    log,
    /** A token for any email (another audience too). */
    tokenFor: (email: string, aud?: string) => keys.token(email, aud),
    close: () => app.close(),
  };
}

export type Harness = Awaited<ReturnType<typeof consoleHarness>>;
