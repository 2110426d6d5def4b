import type { App } from '@platform/kit';
import { injectJson } from '@platform/kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { httpResidentDirectory } from '../src/clients/directory.ts';
import { httpPropertyConnector } from '../src/clients/property-management.ts';
import { agentsConfig } from '../src/config.ts';
import { mailDomainOf } from '../src/start.ts';
import { FakeConnector, FakeDirectory, type FakeProperty } from './fakes/pm-connector.ts';
import { fid, type Harness, harness, SERVICE_TOKEN, STRANGER, tag, testEnv, VIEWER } from './harness.ts';

/**
 * The property-management tools (spec 3, AGT-152..AGT-183) against a fake connector and a fake
 * directory on local ports speaking the contract in docs/decisions.md. Each test uses its own
 * property (the cache is shared) and its own agent (the day's counts are per agent). The clock is
 * the harness's: 2026-03-02T17:00Z is noon in New York.
 */

const PM_TOKEN = 'pm-connector-test-token';
const DIR_TOKEN = 'directory-test-token';
const NOON_NY = '2026-03-02T17:00:00.000Z';
const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

let connector: FakeConnector;
let directory: FakeDirectory;
/** Connector and directory configured. */
let h: Harness;
/** Neither configured. */
let bare: Harness;
/** The connector without the directory. */
let noDirectory: Harness;
/** The connector with a token it refuses. */
let wrongToken: Harness;

beforeAll(async () => {
  connector = await new FakeConnector(PM_TOKEN).start();
  directory = await new FakeDirectory(DIR_TOKEN).start();
  const propertyConnector = httpPropertyConnector({ baseUrl: connector.url, token: PM_TOKEN, timeoutMs: 5_000 });
  h = await harness({
    now: NOON_NY,
    app: {
      propertyConnector,
      directory: httpResidentDirectory({ baseUrl: directory.url, token: DIR_TOKEN, timeoutMs: 5_000 }),
    },
  });
  bare = await harness({ now: NOON_NY });
  noDirectory = await harness({ now: NOON_NY, app: { propertyConnector } });
  wrongToken = await harness({
    now: NOON_NY,
    app: { propertyConnector: httpPropertyConnector({ baseUrl: connector.url, token: 'wrong', timeoutMs: 5_000 }) },
  });
});
afterAll(async () => {
  await h?.close_();
  await bare?.close_();
  await noDirectory?.close_();
  await wrongToken?.close_();
  await connector?.close();
  await directory?.close();
});
beforeEach(() => {
  h.setNow(NOON_NY);
  connector.failures.clear();
});

/** A fresh agent of OWNER and the tool call its harness makes (service token + X-Platform-Agent-Id). */
async function agentOn(on: Harness = h) {
  const a = await on.agent();
  const call = (tool: string, data: unknown) =>
    on.call('POST', `/v1/agents/${a.id}/${tool}`, { service: a.id }, { data }, null);
  return { id: a.id, call };
}

/** A fresh property on the fake connector. */
function property(): [string, FakeProperty] {
  const code = `P-${tag()}`;
  return [code, connector.property(code)];
}

const count = (prefix: string) => connector.seen(prefix).length;

describe('list_move_ins', () => {
  it('20 AGT-152 AGT-153 AGT-154 answers codes with present, valid and shared flags for email and phone, no names or contact data', async () => {
    const [code, p] = property();
    p.moveIns = [
      mi('R1', 'Ada', 'Byron', 'ada.byron@example.com', '(617) 555-0101'),
      mi('R2', 'Ben', 'Byron', ' ADA.BYRON@example.com ', 'not a phone'),
      mi('R3', 'Cleo', 'Dunn', null, '+1 617 555 0101'),
      mi('R4', 'Dev', 'Ek', 'dev@nowhere', ''),
    ];
    const { call } = await agentOn();
    const r = await call('move-ins', { property_code: code });
    expect(r.status).toBe(200);
    expect(r.data).toEqual([
      row('R1', { present: true, valid: true, shared: true }, { present: true, valid: true, shared: true }),
      row('R2', { present: true, valid: true, shared: true }, { present: true, valid: false, shared: false }),
      row('R3', { present: false, valid: false, shared: false }, { present: true, valid: true, shared: true }),
      row('R4', { present: true, valid: false, shared: false }, { present: false, valid: false, shared: false }),
    ]);
    const text = JSON.stringify(r.body);
    for (const leak of ['Ada', 'Byron', 'Cleo', 'Dunn', '@', '555', 'not a phone']) expect(text).not.toContain(leak);
    expect(connector.seen(`GET /v1/properties/${code}/move-ins`)[0]?.authorization).toBe(`Bearer ${PM_TOKEN}`);
    // What the database keeps is the answer, not the connector's contact data.
    const stored = await h.db.selectFrom('pm_cache').select('value').where('key', '=', code).execute();
    expect(stored).toHaveLength(1);
    for (const leak of ['Ada', 'Byron', '@', '555']) expect(JSON.stringify(stored)).not.toContain(leak);
  });

  it('20 AGT-155 the cache is the database’s: another replica on it answers within the window without a connector read', async () => {
    const [code, p] = property();
    p.moveIns = [mi('R1', 'Ada', 'Byron', 'a@example.com', null)];
    const { id, call } = await agentOn();
    expect((await call('move-ins', { property_code: code })).status).toBe(200);
    const config = agentsConfig(testEnv());
    // Another replica: its own app and process copy (another handle object), the same database.
    const replica = await buildApp({
      database: { ...h.database },
      authenticator: agentsAuthenticator(config),
      callers: callerPolicy(config),
      mailDomain: mailDomainOf(config),
      clock: () => new Date(at(NOON_NY, 20)),
      logLevel: 'silent',
      propertyConnector: httpPropertyConnector({ baseUrl: connector.url, token: PM_TOKEN, timeoutMs: 5_000 }),
    });
    try {
      const r = await injectJson(replica as App, 'POST', `/v1/agents/${id}/move-ins`, {
        headers: { 'x-platform-service-token': SERVICE_TOKEN, 'x-platform-agent-id': id },
        body: { data: { property_code: code } },
      });
      expect(r.status).toBe(200);
      expect(r.data).toHaveLength(1);
      expect(count(`GET /v1/properties/${code}/move-ins`)).toBe(1);
    } finally {
      await replica.close();
    }
  });

  it('20 AGT-155 a read within 30 minutes makes no connector request, one after it (clock injected)', async () => {
    const [code, p] = property();
    p.moveIns = [mi('R1', 'Ada', 'Byron', 'a@example.com', null)];
    const { call } = await agentOn();
    const path = `GET /v1/properties/${code}/move-ins`;
    expect((await call('move-ins', { property_code: code })).status).toBe(200);
    expect(count(path)).toBe(1);
    h.setNow(at(NOON_NY, 29));
    p.moveIns.push(mi('R2', 'Ben', 'Byron', 'b@example.com', null));
    const cachedAnswer = await call('move-ins', { property_code: code });
    expect(cachedAnswer.data).toHaveLength(1);
    expect(count(path)).toBe(1);
    // Another agent reads the same cache: it is the service's, not the agent's.
    expect((await (await agentOn()).call('move-ins', { property_code: code })).data).toHaveLength(1);
    expect(count(path)).toBe(1);
    h.setNow(at(NOON_NY, 31));
    expect((await call('move-ins', { property_code: code })).data).toHaveLength(2);
    expect(count(path)).toBe(2);
  });

  it('20 AGT-156 without a connector credential answers 503 connector_not_configured, nothing written', async () => {
    const { call } = await agentOn(bare);
    const before = await bare.state();
    const r = await call('move-ins', { property_code: 'P-1' });
    expect(r.status).toBe(503);
    expect(r.errors[0].code).toBe('connector_not_configured');
    expect(await bare.state()).toEqual(before);
  });

  it('20 AGT-157 a connector 5xx, a refused token or an answer of another shape is 502 connector_unavailable, nothing cached', async () => {
    const [code, p] = property();
    const { call } = await agentOn();
    connector.failures.set(`GET /v1/properties/${code}/move-ins`, 500);
    const before = await h.state();
    const r = await call('move-ins', { property_code: code });
    expect(r.status).toBe(502);
    expect(r.errors[0].code).toBe('connector_unavailable');
    expect(JSON.stringify(r.body)).not.toContain(PM_TOKEN);
    expect(await h.state()).toEqual(before);
    connector.failures.clear();
    p.moveIns = [{ resident_code: 'R1' } as never];
    expect((await call('move-ins', { property_code: code })).status).toBe(502);
    expect((await (await agentOn(wrongToken)).call('move-ins', { property_code: code })).status).toBe(502);
  });

  it('20 AGT-152 the tool needs the editor role: a viewer 403, a stranger 404; a bad body 422; nothing read', async () => {
    const [code] = property();
    const a = await h.agent();
    await h.db
      .insertInto('agent_members')
      .values({ agent_id: a.id, principal_fid: fid(VIEWER), role: 'viewer', added_at: h.now() })
      .execute();
    const url = `/v1/agents/${a.id}/move-ins`;
    expect((await h.call('POST', url, VIEWER, { data: { property_code: code } }, null)).status).toBe(403);
    expect((await h.call('POST', url, STRANGER, { data: { property_code: code } }, null)).status).toBe(404);
    const bad = await h.call('POST', url, { service: a.id }, { data: { property_code: 'has spaces' } }, null);
    expect(bad.status).toBe(422);
    expect(count(`GET /v1/properties/${code}`)).toBe(0);
  });
});

describe('every property-management tool', () => {
  it('20 AGT-152 AGT-166 AGT-177 without identity 401, nothing read or written', async () => {
    const [code] = property();
    const a = await h.agent();
    const before = await h.state();
    const data = { property_code: code, resident_code: 'R1', unit_code: 'U1', tenant_code: 'T1' };
    const bodies: Record<string, string[]> = {
      'move-ins': ['property_code'],
      'resident-access': ['property_code', 'resident_code'],
      'unit-mapping-gaps': ['property_code'],
      'unit-mapping': ['property_code', 'unit_code'],
      'missing-pms-emails': ['property_code'],
      'pms-emails-from-directory': ['property_code', 'tenant_code'],
    };
    for (const [tool, fields] of Object.entries(bodies)) {
      const body = { data: Object.fromEntries(fields.map((f) => [f, data[f as keyof typeof data]])) };
      const r = await h.call('POST', `/v1/agents/${a.id}/${tool}`, null, body, null);
      expect([tool, r.status]).toEqual([tool, 401]);
    }
    expect(count(`GET /v1/properties/${code}`)).toBe(0);
    expect(await h.state()).toEqual(before);
  });
});

describe('check_resident_access', () => {
  it('20 AGT-158 AGT-159 answers one resident’s facts by codes, cached an hour per person', async () => {
    const [code, p] = property();
    p.moveIns = [mi('R1', 'Ada', 'Byron', 'a@example.com', null), mi('R2', 'Ben', 'Ng', null, null)];
    p.residents.R1 = facts('R1');
    p.residents.R2 = facts('R2');
    const { call } = await agentOn();
    const r = await call('resident-access', { property_code: code, resident_code: 'R1' });
    expect(r.status).toBe(200);
    expect(r.data).toEqual(facts('R1'));
    expect(JSON.stringify(r.body)).not.toMatch(/Ada|Byron|@/);
    const residentReads = () => count(`GET /v1/properties/${code}/residents/`);
    h.setNow(at(NOON_NY, 59));
    expect((await call('resident-access', { property_code: code, resident_code: 'R1' })).data).toEqual(facts('R1'));
    expect(residentReads()).toBe(1);
    // Per person: another resident is read.
    expect((await call('resident-access', { property_code: code, resident_code: 'R2' })).status).toBe(200);
    expect(residentReads()).toBe(2);
    h.setNow(at(NOON_NY, 61));
    expect((await call('resident-access', { property_code: code, resident_code: 'R1' })).status).toBe(200);
    expect(residentReads()).toBe(3);
  });

  it('20 AGT-160 a resident not in the move-ins is 404 resident_not_in_move_ins, and their facts are not read', async () => {
    const [code, p] = property();
    p.moveIns = [mi('R1', 'Ada', 'Byron', null, null)];
    p.residents.R9 = facts('R9');
    const { call } = await agentOn();
    const r = await call('resident-access', { property_code: code, resident_code: 'R9' });
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('resident_not_in_move_ins');
    expect(count(`GET /v1/properties/${code}/residents/`)).toBe(0);
  });
});

describe('list_unit_mapping_gaps', () => {
  it('20 AGT-161 AGT-162 units logged unmapped in the last day, one row each, with the spaces of their name, codes only', async () => {
    const [code, p] = property();
    p.syncLogs = [
      unmapped('U1', 'Apt 1A', at(NOON_NY, -120)),
      unmapped('U1', 'Apt 1A', at(NOON_NY, -60)),
      unmapped('U2', 'Apt 2B', at(NOON_NY, -25 * 60)),
      unmapped('U3', 'Apt 3C', at(NOON_NY, -30)),
      skipped('T1', 'L1', at(NOON_NY, -30)),
    ];
    p.spaces = [space('S1', 'apt 1a'), space('S2', ' Apt  1A'), space('S3', 'Apt 3C'), space('S4', 'Apt 3')];
    const { call } = await agentOn();
    const r = await call('unit-mapping-gaps', { property_code: code });
    expect(r.status).toBe(200);
    expect(r.data).toEqual([
      { unit_code: 'U1', logged_at: at(NOON_NY, -60), candidate_space_codes: ['S1', 'S2'] },
      { unit_code: 'U3', logged_at: at(NOON_NY, -30), candidate_space_codes: ['S3'] },
    ]);
    expect(JSON.stringify(r.body)).not.toContain('Apt');
  });

  it('20 AGT-163 a repeat within 30 minutes makes no connector read; after them one', async () => {
    const [code, p] = property();
    p.syncLogs = [unmapped('U1', 'Apt 1A', at(NOON_NY, -10))];
    const { call } = await agentOn();
    await call('unit-mapping-gaps', { property_code: code });
    h.setNow(at(NOON_NY, 29));
    await call('unit-mapping-gaps', { property_code: code });
    expect(count(`GET /v1/properties/${code}/sync-logs`)).toBe(1);
    h.setNow(at(NOON_NY, 31));
    await call('unit-mapping-gaps', { property_code: code });
    expect(count(`GET /v1/properties/${code}/sync-logs`)).toBe(2);
  });

  it('20 AGT-164 AGT-165 unset is 503, a failing connector 502', async () => {
    expect((await (await agentOn(bare)).call('unit-mapping-gaps', { property_code: 'P-1' })).status).toBe(503);
    const [code] = property();
    connector.failures.set(`GET /v1/properties/${code}/spaces`, 503);
    const r = await (await agentOn()).call('unit-mapping-gaps', { property_code: code });
    expect(r.status).toBe(502);
    expect(r.errors[0].code).toBe('connector_unavailable');
  });
});

/** A property with `n` units logged unmapped an hour ago, each with exactly one space of its name. */
function mappable(n: number): [string, FakeProperty, string[]] {
  const [code, p] = property();
  const units = Array.from({ length: n }, (_, i) => `U${String(i + 1).padStart(2, '0')}`);
  p.syncLogs = units.map((u) => unmapped(u, `Unit ${u}`, at(NOON_NY, -60)));
  p.spaces = units.map((u) => space(`S-${u}`, `unit ${u.toLowerCase()}`));
  return [code, p, units];
}

describe('apply_unit_mapping', () => {
  it('20 AGT-166 uploads the mapping to the one space of the unit’s name and requests a resync', async () => {
    const [code, p] = mappable(1);
    const { call } = await agentOn();
    const r = await call('unit-mapping', { property_code: code, unit_code: 'U01' });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      unit_code: 'U01',
      space_code: 'S-U01',
      uploaded: true,
      resync_requested: true,
      applied_at: NOON_NY,
    });
    expect(p.mappings).toEqual({ U01: 'S-U01' });
    expect(connector.seen(`PUT /v1/properties/${code}/unit-mappings/U01`)[0]?.body).toEqual({ space_code: 'S-U01' });
    expect(count(`POST /v1/properties/${code}/resync`)).toBe(1);
  });

  it('20 AGT-167 AGT-168 AGT-169 no space of the name, several, or a unit not logged unmapped in the last day: 409, no upload, nothing counted', async () => {
    const [code, p] = property();
    p.syncLogs = [
      unmapped('U1', 'Apt 1A', at(NOON_NY, -60)),
      unmapped('U2', 'Apt 2B', at(NOON_NY, -60)),
      unmapped('U3', 'Apt 3C', at(NOON_NY, -24 * 60 - 1)),
    ];
    p.spaces = [space('S1', 'Apt 1A'), space('S1b', 'APT 1A'), space('S3', 'Apt 3C'), space('S9', 'Apt 2')];
    const { id, call } = await agentOn();
    const before = await h.state();
    const expect409 = async (unit: string, codeWanted: string) => {
      const r = await call('unit-mapping', { property_code: code, unit_code: unit });
      expect(r.status).toBe(409);
      expect(r.errors[0].code).toBe(codeWanted);
    };
    await expect409('U2', 'no_space_named');
    await expect409('U1', 'several_spaces_named');
    await expect409('U3', 'unit_not_logged_unmapped');
    await expect409('U4', 'unit_not_logged_unmapped');
    expect(count(`PUT /v1/properties/${code}/unit-mappings`)).toBe(0);
    expect(count(`POST /v1/properties/${code}/resync`)).toBe(0);
    expect(await h.state()).toEqual(before);
    expect(await h.db.selectFrom('pm_tool_days').where('agent_id', '=', id).selectAll().execute()).toEqual([]);
  });

  it('20 AGT-170 a repeat in the New York day answers the first result and uploads nothing; the next day uploads again', async () => {
    const [code, p] = mappable(1);
    const { call } = await agentOn();
    const first = await call('unit-mapping', { property_code: code, unit_code: 'U01' });
    expect(first.status).toBe(200);
    // 23:59 in New York is 04:59 UTC the next morning: still the same day there.
    h.setNow('2026-03-03T04:59:00.000Z');
    p.spaces.push(space('S-other', 'Unit u01'));
    const repeat = await call('unit-mapping', { property_code: code, unit_code: 'U01' });
    expect(repeat.status).toBe(200);
    expect(repeat.data).toEqual(first.data);
    expect(count(`PUT /v1/properties/${code}/unit-mappings`)).toBe(1);
    expect(count(`GET /v1/properties/${code}/sync-logs`)).toBe(1);
    // Midnight in New York: a new day, so the call runs again (and now finds two spaces of the name).
    h.setNow('2026-03-03T05:00:00.000Z');
    const nextDay = await call('unit-mapping', { property_code: code, unit_code: 'U01' });
    expect(nextDay.status).toBe(409);
    expect(nextDay.errors[0].code).toBe('several_spaces_named');
  });

  it('20 AGT-171 AGT-170 11 concurrent calls for different units: 10 uploads and one 429; the limit holds after, repeats still answer', async () => {
    const [code, p, units] = mappable(12);
    const { id, call } = await agentOn();
    const answers = await Promise.all(
      units.slice(0, 11).map((u) => call('unit-mapping', { property_code: code, unit_code: u })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(200), 429]);
    expect(answers.find((a) => a.status === 429)?.errors[0].code).toBe('daily_limit_reached');
    expect(count(`PUT /v1/properties/${code}/unit-mappings`)).toBe(10);
    expect(count(`POST /v1/properties/${code}/resync`)).toBe(10);
    expect(Object.keys(p.mappings)).toHaveLength(10);
    const days = await h.db.selectFrom('pm_tool_days').where('agent_id', '=', id).selectAll().execute();
    expect(days.map((d) => [d.tool, d.day, d.calls])).toEqual([['apply_unit_mapping', '2026-03-02', 10]]);
    const twelfth = await call('unit-mapping', { property_code: code, unit_code: 'U12' });
    expect(twelfth.status).toBe(429);
    expect(count(`PUT /v1/properties/${code}/unit-mappings`)).toBe(10);
    const done = answers.find((a) => a.status === 200)?.data as { unit_code: string };
    const repeat = await call('unit-mapping', { property_code: code, unit_code: done.unit_code });
    expect(repeat.status).toBe(200);
    expect(repeat.data).toEqual(done);
    // The count is per agent: another agent still maps.
    expect((await (await agentOn()).call('unit-mapping', { property_code: code, unit_code: 'U12' })).status).toBe(200);
  });

  it('20 AGT-170 two concurrent calls for one unit upload once and answer the same result', async () => {
    const [code] = mappable(1);
    const { call } = await agentOn();
    const [a, b] = await Promise.all([
      call('unit-mapping', { property_code: code, unit_code: 'U01' }),
      call('unit-mapping', { property_code: code, unit_code: 'U01' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.data).toEqual(b.data);
    expect(count(`PUT /v1/properties/${code}/unit-mappings`)).toBe(1);
  });

  it('20 AGT-171 a failed upload or resync is 502 and counts nothing: the retry uploads', async () => {
    const [code] = mappable(1);
    const { id, call } = await agentOn();
    connector.failures.set(`POST /v1/properties/${code}/resync`, 500);
    const failed = await call('unit-mapping', { property_code: code, unit_code: 'U01' });
    expect(failed.status).toBe(502);
    expect(await h.db.selectFrom('pm_tool_days').where('agent_id', '=', id).selectAll().execute()).toEqual([]);
    connector.failures.clear();
    expect((await call('unit-mapping', { property_code: code, unit_code: 'U01' })).status).toBe(200);
    expect(count(`PUT /v1/properties/${code}/unit-mappings`)).toBe(2);
    expect((await (await agentOn(bare)).call('unit-mapping', { property_code: code, unit_code: 'U01' })).status).toBe(
      503,
    );
  });
});

describe('list_missing_pms_emails', () => {
  it('20 AGT-172 AGT-173 tenants skipped in the last day for lack of email, one row each, codes only', async () => {
    const [code, p] = property();
    p.syncLogs = [
      skipped('T1', 'L1', at(NOON_NY, -300)),
      skipped('T1', 'L1', at(NOON_NY, -30)),
      skipped('T2', 'L2', at(NOON_NY, -25 * 60)),
      skipped('T3', 'L3', at(NOON_NY, -10)),
      unmapped('U1', 'Apt 1A', at(NOON_NY, -10)),
    ];
    const r = await (await agentOn()).call('missing-pms-emails', { property_code: code });
    expect(r.status).toBe(200);
    expect(r.data).toEqual([
      { tenant_code: 'T1', lease_code: 'L1', logged_at: at(NOON_NY, -30) },
      { tenant_code: 'T3', lease_code: 'L3', logged_at: at(NOON_NY, -10) },
    ]);
  });

  it('20 AGT-174 AGT-175 AGT-176 cached 30 minutes; unset 503; a failing connector 502', async () => {
    const [code, p] = property();
    p.syncLogs = [skipped('T1', 'L1', at(NOON_NY, -30))];
    const { call } = await agentOn();
    await call('missing-pms-emails', { property_code: code });
    h.setNow(at(NOON_NY, 29));
    await call('missing-pms-emails', { property_code: code });
    expect(count(`GET /v1/properties/${code}/sync-logs`)).toBe(1);
    h.setNow(at(NOON_NY, 31));
    await call('missing-pms-emails', { property_code: code });
    expect(count(`GET /v1/properties/${code}/sync-logs`)).toBe(2);
    expect((await (await agentOn(bare)).call('missing-pms-emails', { property_code: code })).status).toBe(503);
    const [other] = property();
    connector.failures.set(`GET /v1/properties/${other}/sync-logs`, 500);
    expect((await call('missing-pms-emails', { property_code: other })).status).toBe(502);
  });
});

/** A tenant logged skipped for lack of email 30 minutes ago, with these persons. */
function tenantOf(p: FakeProperty, t: string, persons: [string, string, string, string | null][], writeback = true) {
  p.syncLogs.push(skipped(t, `L-${t}`, at(NOON_NY, -30)));
  p.tenants[t] = {
    tenant_code: t,
    lease_code: `L-${t}`,
    email_writeback: writeback,
    persons: persons.map(([person_code, first_name, last_name, email]) => ({
      person_code,
      first_name,
      last_name,
      email,
    })),
  };
}

const dirResident = (name: string, email: string | null) => ({ resident_id: `d-${tag()}`, name, email });

describe('fill_pms_emails_from_directory', () => {
  it('20 AGT-177 AGT-178 AGT-179 writes each missing email of the same-named directory resident, resyncs the lease, answers outcomes without emails', async () => {
    const [code, p] = property();
    const who = tag();
    tenantOf(p, 'T1', [
      ['P1', 'Ann', `Lee${who}`, null],
      ['P2', 'Bob', `Ray${who}`, 'bob@example.com'],
      ['P3', 'Cy', `Doe${who}`, null],
      ['P4', 'Di', `Fox${who}`, ''],
    ]);
    directory.residents.push(
      dirResident(`ann lee${who}`, 'ann.lee@example.com'),
      dirResident(`Ann Lee${who}son`, 'ann.leeson@example.com'),
      dirResident(`Di Fox${who}`, 'di1@example.com'),
      dirResident(`DI FOX${who}`, 'di2@example.com'),
    );
    const r = await (await agentOn()).call('pms-emails-from-directory', { property_code: code, tenant_code: 'T1' });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      tenant_code: 'T1',
      lease_code: 'L-T1',
      outcomes: [
        { person_code: 'P1', outcome: 'written' },
        { person_code: 'P2', outcome: 'already_has_email' },
        { person_code: 'P3', outcome: 'no_directory_match' },
        { person_code: 'P4', outcome: 'several_directory_matches' },
      ],
      lease_resync: 'requested',
      filled_at: NOON_NY,
    });
    expect(JSON.stringify(r.body)).not.toContain('@');
    const writes = connector.seen(`PUT /v1/properties/${code}/tenants/T1/persons/`);
    expect(writes.map((w) => [w.path, w.body])).toEqual([
      [`/v1/properties/${code}/tenants/T1/persons/P1/email`, { email: 'ann.lee@example.com' }],
    ]);
    expect(count(`POST /v1/properties/${code}/leases/L-T1/resync`)).toBe(1);
    expect(directory.seen('GET /v1/residents')[0]?.authorization).toBe(`Bearer ${DIR_TOKEN}`);
  });

  it('20 AGT-178 no email written: no lease resync', async () => {
    const [code, p] = property();
    tenantOf(p, 'T1', [['P1', 'Nobody', `Known${tag()}`, null]]);
    const r = await (await agentOn()).call('pms-emails-from-directory', { property_code: code, tenant_code: 'T1' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      outcomes: [{ person_code: 'P1', outcome: 'no_directory_match' }],
      lease_resync: 'not_needed',
    });
    expect(count(`POST /v1/properties/${code}/leases/`)).toBe(0);
  });

  it('20 AGT-180 AGT-181 a tenant not logged in the last day, or write-back off: 409 and no connector write', async () => {
    const [code, p] = property();
    const who = tag();
    tenantOf(p, 'T1', [['P1', 'Ann', `Lee${who}`, null]], false);
    tenantOf(p, 'T2', [['P1', 'Ann', `Lee${who}`, null]]);
    p.syncLogs = p.syncLogs.filter((l) => l.tenant_code !== 'T2');
    p.syncLogs.push(skipped('T2', 'L-T2', at(NOON_NY, -24 * 60 - 5)));
    directory.residents.push(dirResident(`Ann Lee${who}`, 'ann@example.com'));
    const { call } = await agentOn();
    const before = await h.state();
    const off = await call('pms-emails-from-directory', { property_code: code, tenant_code: 'T1' });
    expect(off.status).toBe(409);
    expect(off.errors[0].code).toBe('writeback_off');
    const old = await call('pms-emails-from-directory', { property_code: code, tenant_code: 'T2' });
    expect(old.status).toBe(409);
    expect(old.errors[0].code).toBe('tenant_not_logged');
    expect((await call('pms-emails-from-directory', { property_code: code, tenant_code: 'T9' })).status).toBe(409);
    expect(count(`PUT /v1/properties/${code}/`)).toBe(0);
    expect(count(`POST /v1/properties/${code}/`)).toBe(0);
    expect(await h.state()).toEqual(before);
  });

  it('20 AGT-182 a repeat in the day answers the first result and writes nothing, concurrent or not', async () => {
    const [code, p] = property();
    const who = tag();
    tenantOf(p, 'T1', [
      ['P1', 'Ann', `Lee${who}`, null],
      ['P2', 'Cy', `Doe${who}`, null],
    ]);
    directory.residents.push(dirResident(`Ann Lee${who}`, 'ann@example.com'));
    const { call } = await agentOn();
    const body = { property_code: code, tenant_code: 'T1' };
    const [a, b] = await Promise.all([
      call('pms-emails-from-directory', body),
      call('pms-emails-from-directory', body),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.data).toEqual(b.data);
    // The directory now knows Cy too: the repeat still answers the first result, writing nothing.
    directory.residents.push(dirResident(`Cy Doe${who}`, 'cy@example.com'));
    h.setNow(at(NOON_NY, 120));
    const again = await call('pms-emails-from-directory', body);
    expect(again.data).toEqual(a.data);
    expect(count(`PUT /v1/properties/${code}/`)).toBe(1);
    expect(count(`POST /v1/properties/${code}/leases/`)).toBe(1);
  });

  it('20 AGT-183 the 31st fill in a day is 429 and writes nothing (31 concurrent calls: 30 fills)', async () => {
    const [code, p] = property();
    const who = tag();
    const tenants = Array.from({ length: 32 }, (_, i) => `T${i + 1}`);
    for (const t of tenants) {
      tenantOf(p, t, [['P1', 'Pat', `${t}x${who}`, null]]);
      directory.residents.push(dirResident(`Pat ${t}x${who}`, `${t.toLowerCase()}@example.com`));
    }
    const { call } = await agentOn();
    const answers = await Promise.all(
      tenants.slice(0, 31).map((t) => call('pms-emails-from-directory', { property_code: code, tenant_code: t })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(30).fill(200), 429]);
    expect(count(`PUT /v1/properties/${code}/`)).toBe(30);
    const last = await call('pms-emails-from-directory', { property_code: code, tenant_code: 'T32' });
    expect(last.status).toBe(429);
    expect(last.errors[0].code).toBe('daily_limit_reached');
    expect(count(`PUT /v1/properties/${code}/`)).toBe(30);
  });

  it('20 AGT-177 without the directory 503 directory_not_configured; a failing directory 502; nothing written', async () => {
    const [code, p] = property();
    tenantOf(p, 'T1', [['P1', 'Ann', `Lee${tag()}`, null]]);
    const r = await (await agentOn(noDirectory)).call('pms-emails-from-directory', {
      property_code: code,
      tenant_code: 'T1',
    });
    expect(r.status).toBe(503);
    expect(r.errors[0].code).toBe('directory_not_configured');
    directory.failures.set('GET /v1/residents', 500);
    try {
      const failed = await (await agentOn()).call('pms-emails-from-directory', {
        property_code: code,
        tenant_code: 'T1',
      });
      expect(failed.status).toBe(502);
      expect(failed.errors[0].code).toBe('directory_unavailable');
    } finally {
      directory.failures.clear();
    }
    expect(count(`PUT /v1/properties/${code}/`)).toBe(0);
  });
});

function mi(resident: string, first: string, last: string, email: string | null, phone: string | null) {
  return {
    resident_code: resident,
    unit_code: `U-${resident}`,
    lease_code: `L-${resident}`,
    move_in_date: '2026-03-15',
    first_name: first,
    last_name: last,
    email,
    phone,
  };
}

function row(resident: string, email: object, phone: object) {
  return {
    resident_code: resident,
    unit_code: `U-${resident}`,
    lease_code: `L-${resident}`,
    move_in_date: '2026-03-15',
    email,
    phone,
  };
}

function facts(resident: string) {
  return {
    resident_code: resident,
    unit_code: `U-${resident}`,
    lease_code: `L-${resident}`,
    space_code: 'S-9',
    lease_status: 'future',
    move_in_date: '2026-03-15',
    portal_account: true,
    door_access: false,
  };
}

const unmapped = (unit: string, name: string, loggedAt: string) => ({
  logged_at: loggedAt,
  kind: 'unit_unmapped',
  unit_code: unit,
  unit_name: name,
});
const skipped = (tenant: string, lease: string, loggedAt: string) => ({
  logged_at: loggedAt,
  kind: 'tenant_skipped_no_email',
  tenant_code: tenant,
  lease_code: lease,
});
const space = (code: string, name: string) => ({ space_code: code, name });
