import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTANT, BILLING, CONTROLLER, type Harness, harness, PAYMENTS, SENIOR } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A system principal that holds only what any service may do (the single-account read among it). */
const READER_SERVICE = 'service:chart-check';

const chart = () => `CH${randomUUID().slice(0, 8)}`;
const body = (over: Record<string, unknown> = {}) => ({
  chart_code: 'US',
  code: randomUUID().slice(0, 8),
  name: 'Cash at bank',
  classification: 'asset',
  is_postable: true,
  ...over,
});
const without = (o: Record<string, unknown>, key: string) => {
  const { [key]: _drop, ...rest } = o;
  return rest;
};
const create = (data: unknown, as = CONTROLLER, extra: Record<string, unknown> = {}) =>
  h.call('POST', '/v1/accounts', as, { data, ...extra });

interface Node {
  id: string;
  code: string;
  chart_code: string;
  parent_code: string | null;
  children: Node[];
}
const tree = async (chartCode?: string) => {
  const r = await h.call('GET', `/v1/accounts/tree${chartCode ? `?chart_code=${chartCode}` : ''}`, CONTROLLER);
  expect(r.status).toBe(200);
  return r.data as { chart_code: string; accounts: Node[] }[];
};
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

/** Expects a schema refusal naming `field`, with nothing written. */
async function expectRejected(data: unknown, field: string) {
  const before = await h.state();
  const r = await create(data);
  expect(r.status).toBe(422);
  expect(r.errors[0].code).toBe('validation_failed');
  expect(r.errors.some((e: { field?: string }) => e.field?.includes(field))).toBe(true);
  expect(await h.state()).toEqual(before);
}

describe('account creation', () => {
  it('ACC-001 ACC-002 PLT-034 POST /v1/accounts creates the account, returns it enveloped at payload.data, and GET /v1/accounts/{id} returns it', async () => {
    const input = body({ chart_code: chart(), code: '1010', name: 'Operating cash', is_postable: false });
    const r = await create(input);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['header', 'payload']);
    expect(r.data.id).toMatch(UUID);
    expect(r.data).toMatchObject({ ...input, parent_code: null });

    const read = await h.call('GET', `/v1/accounts/${r.data.id}`, CONTROLLER);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body).sort()).toEqual(['header', 'payload']);
    expect(read.data).toEqual(r.data);
  });

  it('ACC-003 POST /v1/accounts without an Idempotency-Key is refused and writes no account', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/accounts', CONTROLLER, { data: body() }, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-004 POST /v1/accounts accepts {data, why} and the same body without why', async () => {
    const c = chart();
    const withWhy = await create(body({ chart_code: c, code: '1' }), CONTROLLER, {
      why: { code: 'setup', detail: 'Opening chart' },
    });
    expect(withWhy.status).toBe(201);
    const noWhy = await create(body({ chart_code: c, code: '2' }));
    expect(noWhy.status).toBe(201);
    expect((await h.call('GET', `/v1/accounts/${withWhy.data.id}`, CONTROLLER)).status).toBe(200);
    expect((await h.call('GET', `/v1/accounts/${noWhy.data.id}`, CONTROLLER)).status).toBe(200);
  });

  it('ACC-005 a body without chart_code, or with a non-string chart_code, is rejected and no account is persisted', async () => {
    await expectRejected(without(body(), 'chart_code'), 'chart_code');
    await expectRejected(body({ chart_code: 42 }), 'chart_code');
  });

  it('ACC-006 a body without code, or with a non-string code, is rejected and no account is persisted', async () => {
    await expectRejected(without(body(), 'code'), 'code');
    await expectRejected(body({ code: 1000 }), 'code');
  });

  it('ACC-007 a body without name, or with a non-string name, is rejected and no account is persisted', async () => {
    await expectRejected(without(body(), 'name'), 'name');
    await expectRejected(body({ name: ['Cash'] }), 'name');
  });

  it('ACC-008 a body without classification is rejected and no account is persisted', async () => {
    await expectRejected(without(body(), 'classification'), 'classification');
  });

  it('ACC-009 each of asset, liability, equity, revenue, expense is accepted; any other classification is rejected and nothing is persisted', async () => {
    const c = chart();
    for (const classification of ['asset', 'liability', 'equity', 'revenue', 'expense']) {
      const r = await create(body({ chart_code: c, classification }));
      expect(r.status).toBe(201);
      expect(r.data.classification).toBe(classification);
    }
    for (const classification of ['income', 'Asset', '', 7]) {
      await expectRejected(body({ chart_code: c, classification }), 'classification');
    }
  });

  it('ACC-010 is_postable missing or not a boolean is rejected and nothing is persisted', async () => {
    await expectRejected(without(body(), 'is_postable'), 'is_postable');
    await expectRejected(body({ is_postable: 'true' }), 'is_postable');
    await expectRejected(body({ is_postable: 1 }), 'is_postable');
    await expectRejected(body({ is_postable: null }), 'is_postable');
  });
});

describe('parents and codes', () => {
  it('ACC-011 an account created without parent_code sits at the top of its chart tree', async () => {
    const c = chart();
    const r = await create(body({ chart_code: c, code: '1000' }));
    expect(r.status).toBe(201);
    expect(r.data.parent_code).toBeNull();
    const [t] = await tree(c);
    expect(t.chart_code).toBe(c);
    expect(t.accounts.map((a) => a.id)).toEqual([r.data.id]);
    expect(t.accounts[0].children).toEqual([]);
  });

  it('ACC-012 parent_code puts the new account under that parent in GET /v1/accounts/tree', async () => {
    const c = chart();
    const parent = await create(body({ chart_code: c, code: '1000', is_postable: false }));
    const child = await create(body({ chart_code: c, code: '1010', parent_code: '1000' }));
    expect(child.status).toBe(201);
    expect(child.data.parent_code).toBe('1000');
    const [t] = await tree(c);
    expect(t.accounts.map((a) => a.id)).toEqual([parent.data.id]);
    expect(t.accounts[0].children.map((a) => a.id)).toEqual([child.data.id]);
  });

  it('ACC-013 a parent_code that is not an account code of the same chart is refused and nothing is persisted', async () => {
    const c = chart();
    const other = chart();
    await create(body({ chart_code: other, code: '2000' }));
    await create(body({ chart_code: c, code: '1000' }));
    for (const parent_code of ['9999', '2000']) {
      const before = await h.state();
      const r = await create(body({ chart_code: c, code: '1010', parent_code }));
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('parent_not_found');
      expect(await h.state()).toEqual(before);
    }
  });

  it('ACC-014 a second account with the same chart_code and code is refused and nothing is persisted', async () => {
    const c = chart();
    const first = await create(body({ chart_code: c, code: '1000', name: 'First' }));
    expect(first.status).toBe(201);
    const before = await h.state();
    const r = await create(body({ chart_code: c, code: '1000', name: 'Second', classification: 'expense' }));
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('account_code_exists');
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', `/v1/accounts/${first.data.id}`, CONTROLLER)).data.name).toBe('First');
  });

  it('ACC-015 a code that exists only in another chart is created', async () => {
    const a = chart();
    const b = chart();
    const first = await create(body({ chart_code: a, code: '1000' }));
    const second = await create(body({ chart_code: b, code: '1000' }));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.data.id).not.toBe(first.data.id);
    expect(second.data).toMatchObject({ chart_code: b, code: '1000' });
  });

  it('ACC-016 the event emitted for the new account carries the command why', async () => {
    const why = { code: 'chart_setup', detail: 'Adding the escrow account' };
    const r = await create(body({ chart_code: chart() }), CONTROLLER, { why });
    expect(r.status).toBe(201);
    const events = (await h.events('account.created')).filter(
      (e) => (e.payload.data.account as { id: string }).id === r.data.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload.data.why).toEqual(why);
    expect(events[0].payload.data.account).toEqual(r.data);
  });
});

describe('account reads', () => {
  it('ACC-017 GET /v1/accounts returns an array of accounts at payload.data', async () => {
    const made = await create(body({ chart_code: chart() }));
    const r = await h.call('GET', `/v1/accounts?chart_code=${made.data.chart_code}`, CONTROLLER);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.data)).toBe(true);
    expect(r.data).toEqual([made.data]);
    const all = await h.call('GET', '/v1/accounts', CONTROLLER);
    expect(Array.isArray(all.data)).toBe(true);
    for (const a of all.data)
      expect(a).toMatchObject({ id: expect.stringMatching(UUID), chart_code: expect.any(String) });
  });

  it('ACC-018 GET /v1/accounts returns at most limit accounts', async () => {
    const c = chart();
    for (const code of ['1', '2', '3', '4']) await create(body({ chart_code: c, code }));
    for (const limit of [1, 3]) {
      const r = await h.call('GET', `/v1/accounts?chart_code=${c}&limit=${limit}`, CONTROLLER);
      expect(r.status).toBe(200);
      expect(r.data).toHaveLength(limit);
    }
    const all = await h.call('GET', '/v1/accounts?limit=2', CONTROLLER);
    expect(all.data.length).toBeLessThanOrEqual(2);
  });

  it('ACC-019 following the after cursor yields the next accounts with none repeated and none skipped', async () => {
    const c = chart();
    const made: string[] = [];
    for (const code of ['10', '20', '30', '40', '50']) made.push((await create(body({ chart_code: c, code }))).data.id);
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const q: string = `/v1/accounts?chart_code=${c}&limit=2${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const r = await h.call('GET', q, CONTROLLER);
      expect(r.status).toBe(200);
      seen.push(...r.data.map((a: { id: string }) => a.id));
      after = r.body.payload.meta.pagination.nextCursor;
      if (!after) break;
    }
    expect(seen).toEqual(made);

    // The whole listing too: walking every page equals one big page.
    const big = await h.call('GET', '/v1/accounts?limit=200', CONTROLLER);
    const walked: string[] = [];
    after = null;
    for (let i = 0; i < 200; i++) {
      const q: string = `/v1/accounts?limit=3${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const r = await h.call('GET', q, CONTROLLER);
      walked.push(...r.data.map((a: { id: string }) => a.id));
      after = r.body.payload.meta.pagination.nextCursor;
      if (!after) break;
    }
    expect(walked).toEqual(big.data.map((a: { id: string }) => a.id));
    expect(new Set(walked).size).toBe(walked.length);
  });

  it('ACC-020 GET /v1/accounts/tree nests each account under the account named by its parent_code', async () => {
    const c = chart();
    const root = await create(body({ chart_code: c, code: '1000', is_postable: false }));
    const mid = await create(body({ chart_code: c, code: '1100', parent_code: '1000', is_postable: false }));
    const leafA = await create(body({ chart_code: c, code: '1110', parent_code: '1100' }));
    const leafB = await create(body({ chart_code: c, code: '1120', parent_code: '1100' }));
    const sibling = await create(body({ chart_code: c, code: '1200', parent_code: '1000' }));
    const other = await create(body({ chart_code: c, code: '2000', classification: 'liability' }));
    const [t] = await tree(c);
    expect(t.accounts.map((a) => a.id)).toEqual([root.data.id, other.data.id]);
    const r = t.accounts[0];
    expect(r.children.map((a) => a.id)).toEqual([mid.data.id, sibling.data.id]);
    expect(r.children[0].children.map((a) => a.id)).toEqual([leafA.data.id, leafB.data.id]);
    // Every node's children name it as their parent.
    const check = (n: Node) => {
      for (const ch of n.children) {
        expect(ch.parent_code).toBe(n.code);
        check(ch);
      }
    };
    for (const n of t.accounts) {
      expect(n.parent_code).toBeNull();
      check(n);
    }
  });

  it('ACC-021 accounts of different chart codes never appear in the same tree', async () => {
    const a = chart();
    const b = chart();
    await create(body({ chart_code: a, code: '1000' }));
    await create(body({ chart_code: a, code: '1100', parent_code: '1000' }));
    await create(body({ chart_code: b, code: '1000' }));
    await create(body({ chart_code: b, code: '1100', parent_code: '1000' }));
    const trees = await tree();
    const codes = trees.map((t) => t.chart_code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const t of trees) for (const n of flatten(t.accounts)) expect(n.chart_code).toBe(t.chart_code);
    const ta = trees.find((t) => t.chart_code === a);
    const tb = trees.find((t) => t.chart_code === b);
    expect(flatten(ta?.accounts ?? [])).toHaveLength(2);
    expect(flatten(tb?.accounts ?? [])).toHaveLength(2);
    // Filtering by chart returns that chart's tree only.
    expect((await tree(a)).map((t) => t.chart_code)).toEqual([a]);
  });

  it('ACC-022 GET /v1/accounts/{id} returns the account with that id; an unknown id is 404', async () => {
    const c = chart();
    const one = await create(body({ chart_code: c, code: '1' }));
    const two = await create(body({ chart_code: c, code: '2' }));
    const r = await h.call('GET', `/v1/accounts/${two.data.id}`, CONTROLLER);
    expect(r.status).toBe(200);
    expect(r.data.id).toBe(two.data.id);
    expect(r.data).toEqual(two.data);
    expect(r.data.id).not.toBe(one.data.id);
    const missing = await h.call('GET', `/v1/accounts/${randomUUID()}`, CONTROLLER);
    expect(missing.status).toBe(404);
    expect(missing.errors[0].code).toBe('account_not_found');
  });
});

describe('system principals and the single-account read', () => {
  it('ACC-206 a system principal may read a single account', async () => {
    const made = await create(body({ chart_code: chart() }));
    for (const service of [PAYMENTS, BILLING, READER_SERVICE]) {
      const r = await h.call('GET', `/v1/accounts/${made.data.id}`, service);
      expect(r.status).toBe(200);
      expect(r.data).toEqual(made.data);
    }
  });

  it('ACC-207 a system principal holding only the single-account read cannot list accounts (403)', async () => {
    for (const service of [READER_SERVICE, PAYMENTS, BILLING]) {
      const list = await h.call('GET', '/v1/accounts', service);
      expect(list.status).toBe(403);
      expect(list.errors[0].code).toBe('forbidden');
      expect((await h.call('GET', '/v1/accounts/tree', service)).status).toBe(403);
    }
  });

  it('ACC-208 a system principal holding only the single-account read cannot create accounts: 403, nothing written', async () => {
    for (const service of [READER_SERVICE, PAYMENTS, BILLING]) {
      const before = await h.state();
      const r = await create(body({ chart_code: chart() }), service);
      expect(r.status).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
      expect(await h.state()).toEqual(before);
    }
  });

  it('ACC-209 a system principal holding only the single-account read cannot make an account-use change (403)', async () => {
    const made = await create(body({ chart_code: chart(), is_postable: true }));
    for (const service of [READER_SERVICE, PAYMENTS, BILLING]) {
      const before = await h.state();
      const r = await h.call('POST', `/v1/accounts/${made.data.id}/postability`, service, {
        data: { is_postable: false },
      });
      expect(r.status).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
      expect(await h.state()).toEqual(before);
    }
    expect((await h.call('GET', `/v1/accounts/${made.data.id}`, CONTROLLER)).data.is_postable).toBe(true);
    // The same change by a chart owner goes through, so the refusal above is the permission.
    const ok = await h.call('POST', `/v1/accounts/${made.data.id}/postability`, SENIOR, {
      data: { is_postable: false },
    });
    expect(ok.status).toBe(200);
    expect(ok.data.is_postable).toBe(false);
    expect((await h.call('GET', `/v1/accounts/${made.data.id}`, ACCOUNTANT)).data.is_postable).toBe(false);
  });
});
