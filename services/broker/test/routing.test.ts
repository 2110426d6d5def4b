import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, harness, OTHER, SERVICE_TOKEN, STAFF, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const RULES = '/v1/routing/rules';
const AUTO = '/v1/routing/auto-route';
const EXCEPTIONS = '/v1/routing/exceptions';

const nano = { name: 'GPT-4.1 to nano', match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-nano' };
const haiku = {
  id: 'claude-cheap',
  name: 'Claude to Haiku',
  match: { model: 'claude-*', provider: 'anthropic', api: 'messages' },
  target_model: 'claude-haiku-4-5',
  enabled: false,
};

const ruleRows = () => h.db.selectFrom('routing_rules').selectAll().orderBy('position').execute();
const optOutRows = () => h.db.selectFrom('routing_opt_outs').selectAll().orderBy('email').execute();

async function putRules(rules: unknown[], as = ADMIN) {
  const r = await h.call('PUT', RULES, as, { data: { rules } });
  h.expectStatus('put rules', r, 200);
  return r;
}

describe('substitution rules', () => {
  it('BRK-091 GET /v1/routing/rules answers the rules to any staff member (none at first)', async () => {
    const r = await h.call('GET', RULES, STAFF);
    expect(r.status).toBe(200);
    expect(r.data).toEqual([]);
  });

  it('BRK-092 BRK-183 an admin PUT replaces the list; GET then returns it in order, ids kept or made', async () => {
    const put = await putRules([nano, haiku]);
    expect(put.data).toHaveLength(2);
    expect(put.data[0]).toMatchObject({ ...nano, enabled: true });
    expect(put.data[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(put.data[1]).toEqual(haiku);
    const got = await h.call('GET', RULES, OTHER);
    expect(got.status).toBe(200);
    expect(got.data).toEqual(put.data);
    const rows = await ruleRows();
    expect(rows.map((r) => [r.position, r.match_model, r.target_model, r.updated_by])).toEqual([
      [0, 'gpt-4.1', 'gpt-4.1-nano', ADMIN],
      [1, 'claude-*', 'claude-haiku-4-5', ADMIN],
    ]);

    // The whole list is replaced: the first rule goes, the second stays under its id.
    const again = await putRules([{ ...haiku, enabled: true }]);
    expect(again.data).toEqual([{ ...haiku, enabled: true }]);
    expect((await ruleRows()).map((r) => r.id)).toEqual(['claude-cheap']);
    await putRules([]);
    expect(await ruleRows()).toEqual([]);
  });

  it('BRK-183 BRK-172 a non-admin PUT is 403 and changes nothing', async () => {
    await putRules([nano]);
    const before = await ruleRows();
    const r = await h.call('PUT', RULES, STAFF, { data: { rules: [] } });
    expect(r.status).toBe(403);
    expect(r.errors[0].code).toBe('forbidden');
    expect(await ruleRows()).toEqual(before);
    const service = await h.call('PUT', RULES, { service: null }, { data: { rules: [] } });
    expect(service.status).toBe(403);
    expect(await ruleRows()).toEqual(before);
  });

  it('BRK-003 a PUT without Idempotency-Key is 400 and changes nothing; a replay answers the first result', async () => {
    const before = await ruleRows();
    const r = await h.call('PUT', RULES, ADMIN, { data: { rules: [] } }, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await ruleRows()).toEqual(before);

    const key = randomUUID();
    const first = await h.call('PUT', RULES, ADMIN, { data: { rules: [{ ...nano, id: 'replayed' }] } }, key);
    expect(first.status).toBe(200);
    await putRules([nano]);
    const replay = await h.call('PUT', RULES, ADMIN, { data: { rules: [{ ...nano, id: 'replayed' }] } }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect((await ruleRows()).map((x) => x.id)).not.toContain('replayed');
    const other = await h.call('PUT', RULES, ADMIN, { data: { rules: [] } }, key);
    expect(other.status).toBe(409);
  });

  it('BRK-092 catalog checks: 422 unknown_model / unknown_provider / target_more_expensive, nothing stored', async () => {
    await putRules([nano]);
    const before = await ruleRows();
    const cases: [unknown, string, string][] = [
      [{ ...nano, target_model: 'gpt-0' }, 'unknown_model', 'body/data/rules/0/target_model'],
      [{ ...nano, match: { model: 'gpt-9' } }, 'unknown_model', 'body/data/rules/0/match/model'],
      [
        { ...nano, match: { model: 'gpt-4.1', provider: 'nowhere' } },
        'unknown_provider',
        'body/data/rules/0/match/provider',
      ],
      [
        { ...nano, match: { model: 'gpt-4.1-nano' }, target_model: 'gpt-4.1' },
        'target_more_expensive',
        'body/data/rules/0/target_model',
      ],
    ];
    for (const [rule, code, field] of cases) {
      const r = await h.call('PUT', RULES, ADMIN, { data: { rules: [rule] } });
      expect([r.status, r.errors[0].code, r.errors[0].field]).toEqual([422, code, field]);
    }
    const dup = await h.call('PUT', RULES, ADMIN, { data: { rules: [haiku, haiku] } });
    expect([dup.status, dup.errors[0].code]).toEqual([422, 'duplicate_rule_id']);
    expect(await ruleRows()).toEqual(before);
  });

  it('schema violations are 422 naming the field, nothing stored', async () => {
    const before = await ruleRows();
    const cases: [unknown, string][] = [
      [{ rules: [{ ...nano, colour: 'red' }] }, 'body/data/rules/0/colour'],
      [{ rules: [{ ...nano, match: { model: 'gpt-*-mini' } }] }, 'body/data/rules/0/match/model'],
      [{ rules: [{ ...nano, match: { model: 'gpt-4.1', api: 'speech' } }] }, 'body/data/rules/0/match/api'],
      [{ rules: [{ ...nano, name: undefined }] }, 'body/data/rules/0/name'],
      [{ rules: [{ ...nano, name: '   ' }] }, 'body/data/rules/0/name'],
      [{}, 'body/data/rules'],
    ];
    for (const [data, field] of cases) {
      const r = await h.call('PUT', RULES, ADMIN, { data });
      expect(r.status).toBe(422);
      expect(r.errors[0].field).toBe(field);
    }
    expect(await ruleRows()).toEqual(before);
  });
});

describe('auto-route and exceptions', () => {
  it('BRK-094 routing is on by default: an email never set is not an exception', async () => {
    const email = `never-${tag()}@broker.test`;
    const r = await h.call('GET', EXCEPTIONS, ADMIN);
    expect(r.status).toBe(200);
    expect(r.data.map((x: { email: string }) => x.email)).not.toContain(email);
  });

  it('BRK-093 BRK-185 BRK-095 an admin turns routing off (listed with when and by whom) and back on', async () => {
    const email = `Off-${tag()}@Broker.Test`;
    const lower = email.toLowerCase();
    h.setNow('2025-06-16T15:00:00Z');
    const off = await h.call('PUT', AUTO, ADMIN, { data: { email, enabled: false } });
    expect(off.status).toBe(200);
    expect(off.data).toEqual({ email: lower, enabled: false, off_at: '2025-06-16T15:00:00.000Z', off_by: ADMIN });
    const list = await h.call('GET', EXCEPTIONS, ADMIN);
    expect(list.data).toContainEqual({ email: lower, off_at: '2025-06-16T15:00:00.000Z', off_by: ADMIN });

    // Off again later keeps the first time and author.
    h.setNow('2025-06-17T09:00:00Z');
    const again = await h.call('PUT', AUTO, ADMIN, { data: { email: lower, enabled: false } });
    expect(again.data.off_at).toBe('2025-06-16T15:00:00.000Z');
    expect((await optOutRows()).filter((r) => r.email === lower)).toHaveLength(1);

    const on = await h.call('PUT', AUTO, ADMIN, { data: { email, enabled: true } });
    expect(on.data).toEqual({ email: lower, enabled: true, off_at: null, off_by: null });
    expect((await optOutRows()).map((r) => r.email)).not.toContain(lower);
    const after = await h.call('GET', EXCEPTIONS, ADMIN);
    expect(after.data.map((x: { email: string }) => x.email)).not.toContain(lower);
    h.setNow('2025-06-16T15:00:00Z');
  });

  it('BRK-185 BRK-172 a non-admin cannot turn routing off, even for themself: 403, nothing written', async () => {
    const before = await optOutRows();
    const r = await h.call('PUT', AUTO, STAFF, { data: { email: STAFF, enabled: false } });
    expect(r.status).toBe(403);
    expect(await optOutRows()).toEqual(before);
    const svc = await h.call(
      'PUT',
      AUTO,
      { headers: { 'x-platform-service-token': SERVICE_TOKEN } },
      {
        data: { email: STAFF, enabled: false },
      },
    );
    expect(svc.status).toBe(403);
    expect(await optOutRows()).toEqual(before);
  });

  it('auto-route: a malformed email or a missing enabled is 422 naming the field, nothing written', async () => {
    const before = await optOutRows();
    const bad = await h.call('PUT', AUTO, ADMIN, { data: { email: 'not-an-email', enabled: false } });
    expect([bad.status, bad.errors[0].field]).toEqual([422, 'body/data/email']);
    const missing = await h.call('PUT', AUTO, ADMIN, { data: { email: STAFF } });
    expect([missing.status, missing.errors[0].field]).toEqual([422, 'body/data/enabled']);
    const noKey = await h.call('PUT', AUTO, ADMIN, { data: { email: STAFF, enabled: false } }, null);
    expect(noKey.status).toBe(400);
    expect(await optOutRows()).toEqual(before);
  });

  it('BRK-184 exceptions: an admin reads them (200), a non-admin is 403, no caller is 401', async () => {
    expect((await h.call('GET', EXCEPTIONS, ADMIN)).status).toBe(200);
    const staff = await h.call('GET', EXCEPTIONS, STAFF);
    expect([staff.status, staff.errors[0].code]).toEqual([403, 'forbidden']);
    expect((await h.call('GET', EXCEPTIONS, null)).status).toBe(401);
  });
});

describe('settings and families', () => {
  it('BRK-096 GET /v1/routing/settings carries the quick-check limits and the classifier model', async () => {
    const r = await h.call('GET', '/v1/routing/settings', STAFF);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      quick_check: { max_input_chars: 2000, max_messages: 6, excludes: ['tools', 'images', 'audio', 'files'] },
      classifier: null,
    });
    await h.db
      .updateTable('routing_settings')
      .set({ classifier_provider: 'openai', classifier_model: 'gpt-4.1-nano', max_input_chars: 1500 })
      .execute();
    const named = await h.call('GET', '/v1/routing/settings', STAFF);
    expect(named.data.quick_check.max_input_chars).toBe(1500);
    expect(named.data.classifier).toEqual({ provider: 'openai', model: 'gpt-4.1-nano', max_input_chars: 20000 });
    await h.db
      .updateTable('routing_settings')
      .set({ classifier_provider: null, classifier_model: null, max_input_chars: 2000 })
      .execute();
  });

  it('BRK-097 BRK-098 GET /v1/routing/families lists each family’s enabled models, cheapest first', async () => {
    const r = await h.call('GET', '/v1/routing/families', STAFF);
    expect(r.status).toBe(200);
    expect(r.data.map((f: { family: string }) => f.family)).toEqual(['claude', 'gpt-4.1', 'gpt-4o']);
    const claude = r.data[0];
    expect(claude.models.map((m: { wire_id: string; tier: string }) => [m.wire_id, m.tier])).toEqual([
      ['claude-haiku-4-5', 'light'],
      ['claude-sonnet-4-5', 'standard'],
      ['claude-opus-4-1', 'heavy'],
    ]);
    for (const f of r.data) {
      const measures = f.models.map(
        (m: { prices: { input: number; output: number } }) => m.prices.input + m.prices.output,
      );
      expect(measures).toEqual([...measures].sort((a, b) => a - b));
    }
  });

  it('settings and families need a signed-in person (401 without, 403 for the bare service token)', async () => {
    for (const url of ['/v1/routing/settings', '/v1/routing/families', RULES]) {
      expect((await h.call('GET', url, null)).status).toBe(401);
      expect((await h.call('GET', url, { service: null })).status).toBe(403);
    }
  });
});

describe('14.5 routing is not managed through the shared service token', () => {
  it('14.5 BRK-183 BRK-185 through the service token a platform admin’s (or Super Admin’s) rules PUT and auto-route PUT are 403, nothing written; the same admin directly may', async () => {
    await putRules([nano]);
    const rules = await ruleRows();
    const optOuts = await optOutRows();
    const email = `token-${tag()}@broker.test`;
    for (const who of [ADMIN, 'superadmin@dev.local']) {
      const as = { service: who };
      const put = await h.call('PUT', RULES, as, { data: { rules: [] } });
      expect(put.status, who).toBe(403);
      expect(put.errors[0].code).toBe('forbidden');
      const off = await h.call('PUT', AUTO, as, { data: { email, enabled: false } });
      expect(off.status, who).toBe(403);
    }
    expect(await ruleRows()).toEqual(rules);
    expect(await optOutRows()).toEqual(optOuts);

    await putRules([]);
    expect(await ruleRows()).toEqual([]);
    h.expectStatus('direct off', await h.call('PUT', AUTO, ADMIN, { data: { email, enabled: false } }), 200);
    h.expectStatus('direct on', await h.call('PUT', AUTO, ADMIN, { data: { email, enabled: true } }), 200);
  });
});
