import { randomUUID } from 'node:crypto';
import type { App } from '@platform/kit';
import { injectJson, outboxEvents, rowCount, rowCounts, testDatabase } from '@platform/kit/testing';
import { type CryptoKey, createLocalJWKSet, exportJWK, generateKeyPair, type JWTVerifyGetKey, SignJWT } from 'jose';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { callerPolicy, vendorsAuthenticator } from '../src/auth.ts';
import { vendorsConfig } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';

/** The access gateway of the tests: its issuer, the two applications' audiences, its keys. */
export const GATEWAY_ISSUER = 'https://gateway.vendors.test';
export const INTERNAL_AUD = 'vendors-internal-app';
export const PORTAL_AUD = 'vendors-portal-app';
export const SERVICE_TOKEN = 'vendors-service-token-current';
export const PREVIOUS_SERVICE_TOKEN = 'vendors-service-token-previous';
/** Employees: one listed in VENDORS_EDITORS (listed in another case), one not. */
export const EDITOR = 'editor@corp.test';
export const READER = 'reader@corp.test';

export interface GatewayKeys {
  jwks: JWTVerifyGetKey;
  sign(claims: { email?: string; sub?: string; aud: string; iss?: string; exp?: number }): Promise<string>;
}

/** A gateway key pair: tokens the tests sign verify against `jwks`. */
export async function gatewayKeys(): Promise<GatewayKeys> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'gw1', alg: 'RS256' }] });
  const sign = (c: { email?: string; sub?: string; aud: string; iss?: string; exp?: number }, key: CryptoKey) => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(c.email === undefined ? {} : { email: c.email })
      .setProtectedHeader({ alg: 'RS256', kid: 'gw1' })
      .setIssuer(c.iss ?? GATEWAY_ISSUER)
      .setAudience(c.aud)
      .setSubject(c.sub ?? `gw-${c.email ?? 'nobody'}`)
      .setIssuedAt(now)
      .setExpirationTime(c.exp ?? now + 3600);
    return jwt.sign(key);
  };
  return { jwks, sign: (c) => sign(c, privateKey) };
}

/** The environment of the tests' vendors service; `env` overrides entries (undefined removes one). */
export const testEnv = (env: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({
  VENDORS_ACCESS_AUD: INTERNAL_AUD,
  VENDORS_PORTAL_ACCESS_AUD: PORTAL_AUD,
  VENDORS_EDITORS: ` Editor@Corp.test , second.editor@corp.test`,
  VENDORS_SERVICE_TOKEN: SERVICE_TOKEN,
  VENDORS_SERVICE_TOKEN_PREVIOUS: PREVIOUS_SERVICE_TOKEN,
  GATEWAY_ISSUER,
  DEV_AUTH: '1',
  ...env,
});

/**
 * How a test request proves who it is:
 * - a string: an employee's access-gateway token for the internal application;
 * - {portal}: a firm contact's access-gateway token for the vendor portal;
 * - {service}: the vendors service token acting for that person (token overridable);
 * - {dev}: the local dev header (DEV_AUTH=1);
 * - {headers}: exactly these headers;
 * - null: nothing.
 */
export type As =
  | string
  | { portal: string }
  | { service: string; token?: string }
  | { dev: string }
  | { headers: Record<string, string> }
  | null;

export interface FirmData {
  id: string;
  name: string;
  kind: string;
  kind_description?: string | null;
  discipline: string;
  status: string;
}
export interface ContactData {
  id: string;
  vendor_id: string;
  email: string;
  given_name: string;
  family_name: string;
  active: boolean;
}
export interface CertificateData {
  id: string;
  vendor_id: string;
  coverage: string;
  coverage_description?: string | null;
  policy_number: string;
  starts_on: string;
  expires_on: string;
  recorded_at: string;
}

export const tag = () => randomUUID().slice(0, 8);

/**
 * One vendors app per test file on a fresh database, with the real vendors authenticator over a
 * gateway key pair the test holds, and a clock the test sets. `call` sends a request as someone;
 * commands get a fresh Idempotency-Key unless given one.
 */
export async function harness(opts: { now?: string; env?: Record<string, string | undefined> } = {}) {
  const database = await testDatabase<DB>('vendors', MIGRATIONS);
  const keys = await gatewayKeys();
  const config = vendorsConfig(testEnv(opts.env));
  let now = new Date(opts.now ?? '2025-06-15T12:00:00Z');
  const app = await buildApp({
    database,
    authenticator: vendorsAuthenticator(config, { gatewayJwks: keys.jwks }),
    callers: callerPolicy(config),
    clock: () => now,
    logLevel: 'silent',
  });
  await app.ready();

  const tokens = new Map<string, Promise<string>>();
  const token = (email: string, aud: string) => {
    const k = `${aud} ${email}`;
    let t = tokens.get(k);
    if (!t) {
      t = keys.sign({ email, aud });
      tokens.set(k, t);
    }
    return t;
  };

  const headersFor = async (as: As): Promise<Record<string, string>> => {
    if (as === null) return {};
    if (typeof as === 'string') return { 'cf-access-jwt-assertion': await token(as, INTERNAL_AUD) };
    if ('portal' in as) return { 'cf-access-jwt-assertion': await token(as.portal, PORTAL_AUD) };
    if ('service' in as) {
      return { 'x-platform-service-token': as.token ?? SERVICE_TOKEN, 'x-platform-on-behalf-of': as.service };
    }
    if ('dev' in as) return { 'x-dev-principal': as.dev };
    return as.headers;
  };

  const call = async (
    method: 'GET' | 'POST',
    url: string,
    as: As,
    body?: unknown,
    key: string | null = method === 'GET' ? null : randomUUID(),
  ) => {
    return injectJson(app as App, method, url, { headers: await headersFor(as), body, key });
  };

  const expectStatus = (what: string, r: { status: number; body: unknown }, status: number) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  };

  const h = {
    app: app as App,
    database,
    db: database.db,
    keys,
    config,
    call,
    token,
    setNow: (iso: string) => {
      now = new Date(iso);
    },
    /** A firm added by the editor; the name gets a unique tag unless given. */
    async firm(input: { name?: string; kind?: string; discipline?: string; status?: string } = {}) {
      const r = await call('POST', '/v1/vendors', EDITOR, {
        data: {
          name: input.name ?? `Firm ${tag()}`,
          kind: input.kind ?? 'contractor',
          discipline: input.discipline ?? 'general_contracting',
          ...(input.status ? { status: input.status } : {}),
        },
      });
      expectStatus('firm', r, 201);
      return r.data as FirmData;
    },
    async contact(
      firmId: string,
      input: { email?: string; given_name?: string; family_name?: string; active?: boolean; phone?: string } = {},
    ) {
      const t = tag();
      const r = await call('POST', `/v1/vendors/${firmId}/contacts`, EDITOR, {
        data: {
          email: input.email ?? `person.${t}@firm.test`,
          given_name: input.given_name ?? `Given${t}`,
          family_name: input.family_name ?? `Family${t}`,
          ...(input.phone ? { phone: input.phone } : {}),
          ...(input.active === undefined ? {} : { active: input.active }),
        },
      });
      expectStatus('contact', r, 201);
      return r.data as ContactData;
    },
    async certificate(
      firmId: string,
      input: {
        coverage?: string;
        policy_number?: string;
        starts_on?: string;
        expires_on?: string;
        insurer?: string;
      } = {},
    ) {
      const r = await call('POST', `/v1/vendors/${firmId}/insurance`, EDITOR, {
        data: {
          coverage: input.coverage ?? 'general_liability',
          policy_number: input.policy_number ?? `POL-${tag()}`,
          starts_on: input.starts_on ?? '2025-01-01',
          expires_on: input.expires_on ?? '2025-12-31',
          ...(input.insurer ? { insurer: input.insurer } : {}),
        },
      });
      expectStatus('certificate', r, 201);
      return r.data as CertificateData;
    },
    async setStatus(firmId: string, status: 'active' | 'inactive') {
      const r = await call('POST', `/v1/vendors/${firmId}/status`, EDITOR, { data: { status } });
      expectStatus('status', r, 200);
      return r.data as FirmData;
    },
    async setActive(firmId: string, contactId: string, active: boolean) {
      const r = await call('POST', `/v1/vendors/${firmId}/contacts/${contactId}/active`, EDITOR, { data: { active } });
      expectStatus('active', r, 200);
      return r.data as ContactData;
    },
    /** Every row of GET /v1/vendor-insurance with this query, all pages. */
    async vendorInsurance(query = '') {
      const out: (CertificateData & { vendor_name: string })[] = [];
      for (let page = 1; ; page++) {
        const sep = query ? '&' : '';
        const r = await call(
          'GET',
          `/v1/vendor-insurance?${query}${sep}pagination[pageSize]=200&pagination[page]=${page}`,
          EDITOR,
        );
        expectStatus('vendor-insurance', r, 200);
        out.push(...r.data);
        if (page >= r.meta.pagination.totalPages) return { items: out, total: r.meta.pagination.totalItems as number };
      }
    },
    /** Rows of the outbox, oldest first: what commands committed for publishing. */
    events: (type?: string) => outboxEvents(database.db, type),
    count: (table: string) => rowCount(database.db, table),
    /** How many rows each table vendors writes holds. */
    counts: () =>
      rowCounts(database.db, [
        'firms',
        'contacts',
        'certificates',
        'current_certificates',
        'outbox',
        'idempotency_keys',
      ]),
    /** A fingerprint of everything vendors writes. */
    async state() {
      const out: Record<string, unknown> = await h.counts();
      const firms = await sql`SELECT id, name, status, updated_at FROM firms ORDER BY id`.execute(database.db);
      const contacts = await sql`SELECT id, email, active, updated_at FROM contacts ORDER BY id`.execute(database.db);
      const counts =
        await sql`SELECT coverage, expires_on, certificates FROM current_expiry_counts ORDER BY 1, 2`.execute(
          database.db,
        );
      return { ...out, firms: firms.rows, contacts: contacts.rows, counts: counts.rows };
    },
    async close_() {
      await app.close();
      await database.drop();
    },
  };
  return h;
}

export type Harness = Awaited<ReturnType<typeof harness>>;
