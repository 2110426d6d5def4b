import { randomUUID } from 'node:crypto';
import type { AppError } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budgets } from '../src/relay/budget-gate.ts';
import type { Actor, BudgetGate } from '../src/relay/ports.ts';
import { insertUsage } from '../src/store/usage-writes.ts';
import { identityFid } from '../src/tokens.ts';
import { tokenFor } from './credentials-helpers.ts';
import { ADMIN, fid, tag } from './harness.ts';
import { codes, type RelayHarness, relayHarness } from './relay-setup.ts';

/** The app's gate is the real one, built once the harness's database exists. */
class LateBudgets implements BudgetGate {
  inner?: Budgets;
  check = (a: Actor, now: Date) => (this.inner as Budgets).check(a, now);
  spent = (f: string, c: number, now: Date) => this.inner?.spent(f, c, now);
  invalidate = (f?: string) => this.inner?.invalidate(f);
}

let h: RelayHarness;
const gate = new LateBudgets();
beforeAll(async () => {
  h = await relayHarness({ budgets: gate, now: '2025-06-16T15:00:00Z' });
  // A long cache: only this replica's own spend and budget writes can change what the gate knows.
  gate.inner = new Budgets(h.db, 3_600_000);
});
afterAll(() => h.close());

const spend = (who: string, micros: number, at = '2025-06-10T10:00:00Z') =>
  insertUsage(h.db, [
    {
      id: randomUUID(),
      occurred_at: new Date(at),
      actor_fid: fid(who),
      provider: 'openai',
      provider_kind: 'openai',
      model: 'gpt-4.1-mini',
      requested_model: null,
      request_kind: 'chat',
      input_tokens: 1,
      output_tokens: 1,
      cache_read_tokens: 0,
      cost_micros: micros,
      cache_savings_micros: 0,
      routing_savings_micros: 0,
      source: 'report',
      estimated: false,
    },
  ]);

/** A chat call whose usage the fake reports as one million input tokens: 400,000 micro-dollars (40 cents). */
const chat = (headers: Record<string, string>) =>
  h.post(
    '/v1/relay/chat/completions',
    {
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'hello' }],
      fake: { usage: { input_tokens: 1_000_000, output_tokens: 0 } },
    },
    headers,
  );

const overBudget = (e: unknown) => (e as AppError).status === 402 && (e as AppError).code === 'over_budget';
const refuses = async (g: Budgets, who: string, now: Date) => {
  try {
    await g.check({ fid: fid(who) }, now);
    return false;
  } catch (e) {
    if (overBudget(e)) return true;
    throw e;
  }
};

describe('the budget gate through the relay', () => {
  it('BRK-089 an identity over its limit is refused with 402 before any upstream call', async () => {
    const who = `spender-${tag()}@gate.test`;
    await h.call('GET', '/v1/catalog', who);
    h.expectStatus('override', await h.call('PUT', `/v1/budgets/${who}`, ADMIN, { data: { limit: 50 } }), 200);
    const as = { 'x-dev-principal': who };
    expect((await chat(as)).status).toBe(200);
    expect((await chat(as)).status).toBe(200);
    // 80 cents spent against a 50 cent limit: the spend counted at once, without a database read.
    const upstreamBefore = h.fake.requests.length;
    const rowsBefore = (await h.usageRows()).length;
    const refused = await chat(as);
    expect(refused.status).toBe(402);
    expect(codes(refused)).toEqual(['over_budget']);
    expect(h.fake.requests.length).toBe(upstreamBefore);
    expect((await h.usageRows()).length).toBe(rowsBefore);
    const row = await h.call('GET', `/v1/budgets/${who}`, ADMIN);
    expect(row.data).toMatchObject({ spend_micros: 800_000, spend: 80, limit: 50, over_budget: true });
  });

  it('BRK-089 BRK-087 a budget write takes effect on this replica at once', async () => {
    const who = `limited-${tag()}@gate.test`;
    const as = { 'x-dev-principal': who };
    expect((await chat(as)).status).toBe(200);
    h.expectStatus('zero', await h.call('PUT', `/v1/budgets/${who}`, ADMIN, { data: { limit: 0 } }), 200);
    expect((await chat(as)).status).toBe(402);
    h.expectStatus('clear', await h.call('DELETE', `/v1/budgets/${who}`, ADMIN), 200);
    expect((await chat(as)).status).toBe(200);
    // A default of 0 blocks everyone without an override.
    h.expectStatus('default', await h.call('PUT', '/v1/budgets/default', ADMIN, { data: { limit: 0 } }), 200);
    expect((await chat(as)).status).toBe(402);
    h.expectStatus('restore', await h.call('PUT', '/v1/budgets/default', ADMIN, { data: { limit: 10_000 } }), 200);
    expect((await chat(as)).status).toBe(200);
  });

  it('BRK-090 a service credential has its own budget, apart from the person who created it', async () => {
    const owner = `owner-${tag()}@gate.test`;
    const clientId = `svc-${tag()}`;
    const email = `${clientId}@service.broker`;
    const token = await h.signer?.sign(
      { email, sub: identityFid(email), client_id: clientId, kind: 'service', owner_email: owner },
      h.now(),
    );
    const asService = { authorization: `Bearer ${token?.access_token}` };
    await h.call('GET', '/v1/catalog', owner);
    h.expectStatus('owner', await h.call('PUT', `/v1/budgets/${owner}`, ADMIN, { data: { limit: 0 } }), 200);
    // A service identity spends only what an admin gave it (issue 14.4).
    await h.call('GET', '/v1/catalog', { headers: asService });
    h.expectStatus('svc', await h.call('PUT', `/v1/budgets/${email}`, ADMIN, { data: { limit: 10_000 } }), 200);
    // The owner is blocked; their service identity is not.
    expect((await chat({ 'x-dev-principal': owner })).status).toBe(402);
    expect((await chat(asService)).status).toBe(200);
    const rows = await h.usageRows();
    const last = rows[rows.length - 1];
    expect(last.actor_fid).toBe(identityFid(email));
    const svc = await h.call('GET', `/v1/budgets/${email}`, ADMIN);
    expect(svc.data).toMatchObject({ kind: 'service', creator_fid: fid(owner), spend_micros: 400_000 });
    expect((await h.call('GET', `/v1/budgets/${owner}`, ADMIN)).data.spend_micros).toBe(0);
    // And the service's own limit stops the service, not the person.
    h.expectStatus('svc', await h.call('PUT', `/v1/budgets/${email}`, ADMIN, { data: { limit: 0 } }), 200);
    expect((await chat(asService)).status).toBe(402);
  });

  it('14.4 BRK-090 BRK-122 minting service credentials never adds spend without an admin: ten of them relay nothing', async () => {
    const owner = `minter-${tag()}@gate.test`;
    const services = [];
    for (let i = 0; i < 10; i++) services.push(await tokenFor(h, owner, { name: `svc ${i}`, kind: 'service' }));
    // The person's own budget is the default; each service identity's is 0 until an admin sets one.
    for (const s of services) {
      const row = await h.call('GET', `/v1/budgets/${s.email}`, owner);
      expect(row.data).toMatchObject({ kind: 'service', creator_fid: fid(owner), limit: 0, override: null });
    }
    const upstreamBefore = h.fake.requests.length;
    const rowsBefore = (await h.usageRows()).length;
    for (const s of services) {
      const r = await chat({ authorization: `Bearer ${s.token}` });
      expect(r.status).toBe(402);
      expect(codes(r)).toEqual(['over_budget']);
    }
    expect(h.fake.requests.length).toBe(upstreamBefore);
    expect((await h.usageRows()).length).toBe(rowsBefore);
    // The person still spends their own budget, and an admin can give one service its own.
    expect((await chat({ 'x-dev-principal': owner })).status).toBe(200);
    const [first] = services;
    h.expectStatus('grant', await h.call('PUT', `/v1/budgets/${first.email}`, ADMIN, { data: { limit: 100 } }), 200);
    expect((await chat({ authorization: `Bearer ${first.token}` })).status).toBe(200);
    expect((await chat({ authorization: `Bearer ${services[1].token}` })).status).toBe(402);
  });
});

describe('Budgets', () => {
  const june = new Date('2025-06-16T15:00:00Z');

  it('BRK-089 spend equal to the limit is over; a limit of 0 blocks every call', async () => {
    const who = `edge-${tag()}@gate.test`;
    await h.call('GET', '/v1/catalog', who);
    await h.call('PUT', `/v1/budgets/${who}`, ADMIN, { data: { limit: 1 } });
    await spend(who, 9_999);
    const g = new Budgets(h.db, 0);
    expect(await refuses(g, who, june)).toBe(false);
    await spend(who, 1);
    expect(await refuses(g, who, june)).toBe(true);
    const fresh = `nobody-${tag()}@gate.test`;
    await h.call('GET', '/v1/catalog', fresh);
    await h.call('PUT', `/v1/budgets/${fresh}`, ADMIN, { data: { limit: 0 } });
    expect(await refuses(g, fresh, june)).toBe(true);
  });

  it('BRK-089 figures are cached for cacheMs, then read again; spent() counts at once', async () => {
    const who = `cache-${tag()}@gate.test`;
    await h.call('GET', '/v1/catalog', who);
    await h.call('PUT', `/v1/budgets/${who}`, ADMIN, { data: { limit: 100 } });
    let t = 0;
    const g = new Budgets(h.db, 2_000, () => t);
    expect(await refuses(g, who, june)).toBe(false);
    // Another replica's spend: not seen while the figures are fresh…
    await spend(who, 1_000_000);
    t = 1_999;
    expect(await refuses(g, who, june)).toBe(false);
    // …and seen once they are 2 s old.
    t = 2_000;
    expect(await refuses(g, who, june)).toBe(true);

    const other = `spent-${tag()}@gate.test`;
    await h.call('GET', '/v1/catalog', other);
    await h.call('PUT', `/v1/budgets/${other}`, ADMIN, { data: { limit: 100 } });
    expect(await refuses(g, other, june)).toBe(false);
    g.spent(fid(other), 999_999, june);
    expect(await refuses(g, other, june)).toBe(false);
    g.spent(fid(other), 1, june);
    expect(await refuses(g, other, june)).toBe(true);
  });

  it('BRK-089 invalidate drops one actor’s figures or everyone’s', async () => {
    const who = `inv-${tag()}@gate.test`;
    await h.call('GET', '/v1/catalog', who);
    const g = new Budgets(h.db, 3_600_000);
    expect(await refuses(g, who, june)).toBe(false);
    await h.db
      .insertInto('budget_overrides')
      .values({ actor_fid: fid(who), limit_cents: 0, set_by: 'test', set_at: june })
      .execute();
    expect(await refuses(g, who, june)).toBe(false);
    g.invalidate(fid(who));
    expect(await refuses(g, who, june)).toBe(true);
    await h.db.deleteFrom('budget_overrides').where('actor_fid', '=', fid(who)).execute();
    g.invalidate();
    expect(await refuses(g, who, june)).toBe(false);
  });

  it('BRK-089 a new UTC month starts from nothing', async () => {
    const who = `month-${tag()}@gate.test`;
    await h.call('GET', '/v1/catalog', who);
    await h.call('PUT', `/v1/budgets/${who}`, ADMIN, { data: { limit: 100 } });
    await spend(who, 1_000_000, '2025-06-30T23:59:59Z');
    const g = new Budgets(h.db, 3_600_000);
    expect(await refuses(g, who, new Date('2025-06-30T23:59:59Z'))).toBe(true);
    expect(await refuses(g, who, new Date('2025-07-01T00:00:00Z'))).toBe(false);
    // Spend dated in another month than the cached one is not added to it.
    g.spent(fid(who), 5_000_000, new Date('2025-06-30T23:00:00Z'));
    expect(await refuses(g, who, new Date('2025-07-01T00:00:01Z'))).toBe(false);
  });

  it('BRK-089 concurrent checks of one actor share one read', async () => {
    const who = `shared-${tag()}@gate.test`;
    let reads = 0;
    const counting = new Proxy(h.db, {
      get(target, prop) {
        const v = Reflect.get(target, prop);
        if (prop === 'getExecutor') reads += 1;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const single = new Budgets(counting, 3_600_000);
    await single.check({ fid: fid(`alone-${tag()}@gate.test`) }, june);
    const perRead = reads;
    expect(perRead).toBeGreaterThan(0);
    reads = 0;
    const g = new Budgets(counting, 3_600_000);
    await Promise.all([1, 2, 3, 4].map(() => g.check({ fid: fid(who) }, june)));
    expect(reads).toBe(perRead);
    await g.check({ fid: fid(who) }, june);
    expect(reads).toBe(perRead);
  });
});
