import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, type FirmData, type Harness, harness, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const list = async (query: string) => {
  const r = await h.call('GET', `/v1/vendors?${query}`, EDITOR);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data as FirmData[];
};

describe('commands', () => {
  it('VEN-001 each vendor command reads its fields from body.data: the same fields at the top level are 422, under data they succeed', async () => {
    const firm = await h.firm();
    const contact = await h.contact(firm.id);
    const routes: [string, Record<string, unknown>][] = [
      ['/v1/vendors', { name: `Data ${tag()}`, kind: 'supplier', discipline: 'electrical' }],
      [`/v1/vendors/${firm.id}/status`, { status: 'inactive' }],
      [`/v1/vendors/${firm.id}/contacts`, { email: `d.${tag()}@firm.test`, given_name: 'Dee', family_name: 'Data' }],
      [`/v1/vendors/${firm.id}/contacts/${contact.id}/active`, { active: false }],
      [
        `/v1/vendors/${firm.id}/insurance`,
        { coverage: 'umbrella', policy_number: `U-${tag()}`, starts_on: '2025-01-01', expires_on: '2025-12-31' },
      ],
    ];
    for (const [url, fields] of routes) {
      const before = await h.state();
      const bare = await h.call('POST', url, EDITOR, fields);
      expect(bare.status, url).toBe(422);
      expect(bare.errors?.[0].code).toBe('validation_failed');
      expect(await h.state()).toEqual(before);
      const wrapped = await h.call('POST', url, EDITOR, { data: fields });
      expect([200, 201], url).toContain(wrapped.status);
    }
  });

  it('VEN-002 each vendor command without an Idempotency-Key is 400 idempotency_key_required and writes nothing, no event', async () => {
    const firm = await h.firm();
    const contact = await h.contact(firm.id);
    const routes: [string, unknown][] = [
      ['/v1/vendors', { data: { name: `Key ${tag()}`, kind: 'supplier', discipline: 'electrical' } }],
      [`/v1/vendors/${firm.id}/status`, { data: { status: 'inactive' } }],
      [
        `/v1/vendors/${firm.id}/contacts`,
        { data: { email: `k.${tag()}@firm.test`, given_name: 'K', family_name: 'Ey' } },
      ],
      [`/v1/vendors/${firm.id}/contacts/${contact.id}/active`, { data: { active: false } }],
      [
        `/v1/vendors/${firm.id}/insurance`,
        {
          data: {
            coverage: 'umbrella',
            policy_number: `K-${tag()}`,
            starts_on: '2025-01-01',
            expires_on: '2025-12-31',
          },
        },
      ],
    ];
    const before = await h.state();
    for (const [url, body] of routes) {
      const r = await h.call('POST', url, EDITOR, body, null);
      expect(r.status, url).toBe(400);
      expect(r.errors?.[0].code).toBe('idempotency_key_required');
    }
    expect(await h.state()).toEqual(before);
  });
});

describe('firms', () => {
  it('VEN-003 VEN-004 VEN-005 an added firm reads back with its name, kind, discipline and status, in the list and alone', async () => {
    const name = `Acme Builders ${tag()}`;
    const r = await h.call('POST', '/v1/vendors', EDITOR, {
      data: { name, kind: 'subcontractor', discipline: 'structural_engineering' },
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      name,
      kind: 'subcontractor',
      discipline: 'structural_engineering',
      status: 'active',
    });
    const one = await h.call('GET', `/v1/vendors/${r.data.id}`, EDITOR);
    expect(one.status).toBe(200);
    expect(one.data).toMatchObject({
      id: r.data.id,
      name,
      kind: 'subcontractor',
      discipline: 'structural_engineering',
    });
    expect(['active', 'inactive']).toContain(one.data.status);
    const listed = await list(`q=${encodeURIComponent(name)}`);
    expect(listed.map((f) => f.id)).toEqual([r.data.id]);
    expect(listed[0]).toMatchObject({ name, kind: 'subcontractor', discipline: 'structural_engineering' });
  });

  it('VEN-005 a firm may be added inactive; any other status value is 422', async () => {
    const inactive = await h.firm({ status: 'inactive' });
    expect(inactive.status).toBe('inactive');
    const before = await h.state();
    const r = await h.call('POST', '/v1/vendors', EDITOR, {
      data: { name: `Odd ${tag()}`, kind: 'supplier', discipline: 'other', status: 'suspended' },
    });
    expect(r.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('VEN-006 a firm name equal to an existing one ignoring case is 409 vendor_exists and no firm is written', async () => {
    const t = tag();
    await h.firm({ name: `Acme ${t}` });
    const before = await h.state();
    for (const name of [`ACME ${t.toUpperCase()}`, `acme ${t}`]) {
      const r = await h.call('POST', '/v1/vendors', EDITOR, { data: { name, kind: 'supplier', discipline: 'other' } });
      expect(r.status).toBe(409);
      expect(r.errors?.[0].code).toBe('vendor_exists');
    }
    expect(await h.state()).toEqual(before);
  });

  it('VEN-006 concurrent adds of one name ignoring case: one 201, the others 409 vendor_exists, one firm, one event, one key', async () => {
    const t = tag();
    const before = await h.counts();
    const results = await Promise.all(
      [`Race ${t}`, `RACE ${t.toUpperCase()}`, `race ${t}`, `Race ${t}`, `RAce ${t}`, `rACE ${t}`].map((name) =>
        h.call('POST', '/v1/vendors', EDITOR, { data: { name, kind: 'supplier', discipline: 'other' } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.errors?.[0].code).toBe('vendor_exists');
    const winner = results.find((r) => r.status === 201)?.data as FirmData;
    expect((await list(`q=race ${t}`)).map((f) => f.id)).toEqual([winner.id]);
    const after = await h.counts();
    expect(after.firms).toBe(before.firms + 1);
    expect(after.outbox).toBe(before.outbox + 1);
    // The refused commands left no Idempotency-Key behind either.
    expect(after.idempotency_keys).toBe(before.idempotency_keys + 1);
    const events = (await h.events('vendor.registered')).filter((e) => e.payload.data.vendor_id === winner.id);
    expect(events).toHaveLength(1);
  });

  it('VEN-006 names equal ignoring case beyond ASCII are one name (STRASSE after Straße, ÉCOLE or a decomposed École after École): 409, nothing written', async () => {
    const t = tag();
    await h.firm({ name: `Straße ${t}` });
    await h.firm({ name: `\u00c9cole ${t}` });
    await h.firm({ name: `ΟΔΟΣ ${t}` });
    const before = await h.state();
    for (const name of [
      `STRASSE ${t}`,
      `strasse ${t.toUpperCase()}`,
      `ÉCOLE ${t}`,
      `E\u0301cole ${t}`,
      `e\u0301COLE ${t}`,
      `οδος ${t}`,
      `οδοσ ${t}`,
    ]) {
      const r = await h.call('POST', '/v1/vendors', EDITOR, { data: { name, kind: 'supplier', discipline: 'other' } });
      expect(r.status, name).toBe(409);
      expect(r.errors?.[0].code).toBe('vendor_exists');
    }
    expect(await h.state()).toEqual(before);
  });

  it('VEN-007 an unknown kind is 422 naming the field and no firm is written', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/vendors', EDITOR, {
      data: { name: `Kind ${tag()}`, kind: 'wizard', discipline: 'other' },
    });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/kind' });
    expect(await h.state()).toEqual(before);
  });

  it('VEN-008 an unknown discipline is 422 naming the field and no firm is written', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/vendors', EDITOR, {
      data: { name: `Discipline ${tag()}`, kind: 'consultant', discipline: 'alchemy' },
    });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/discipline' });
    expect(await h.state()).toEqual(before);
  });

  it('VEN-009 the list is ordered by firm name, ignoring case', async () => {
    const t = tag();
    for (const n of ['delta', 'Bravo', 'alpha', 'Charlie']) await h.firm({ name: `${t} ${n}` });
    const names = (await list(`q=${t}`)).map((f) => f.name);
    expect(names).toEqual([`${t} alpha`, `${t} Bravo`, `${t} Charlie`, `${t} delta`]);
  });

  it('VEN-010 status filters the list: inactive only inactive firms, active only active ones', async () => {
    const t = tag();
    const on = await h.firm({ name: `${t} on` });
    const off = await h.firm({ name: `${t} off`, status: 'inactive' });
    expect((await list(`q=${t}&status=inactive`)).map((f) => f.id)).toEqual([off.id]);
    expect((await list(`q=${t}&status=active`)).map((f) => f.id)).toEqual([on.id]);
    expect((await list('status=inactive&pagination[pageSize]=200')).every((f) => f.status === 'inactive')).toBe(true);
    expect((await list('status=active&pagination[pageSize]=200')).every((f) => f.status === 'active')).toBe(true);
    expect((await h.call('GET', '/v1/vendors?status=dormant', EDITOR)).status).toBe(422);
  });

  it('VEN-011 kind filters the list', async () => {
    const t = tag();
    const utility = await h.firm({ name: `${t} power`, kind: 'utility', discipline: 'electrical' });
    await h.firm({ name: `${t} builders`, kind: 'contractor' });
    expect((await list(`q=${t}&kind=utility`)).map((f) => f.id)).toEqual([utility.id]);
    expect((await list('kind=utility&pagination[pageSize]=200')).every((f) => f.kind === 'utility')).toBe(true);
  });

  it('VEN-012 q returns the firms whose name contains it, ignoring case', async () => {
    const t = tag();
    const a = await h.firm({ name: `North ${t} Roofing` });
    const b = await h.firm({ name: `South ${t} roofing and Gutters` });
    await h.firm({ name: `North ${t} Paving` });
    expect((await list(`q=${encodeURIComponent(`${t} ROOFING`)}`)).map((f) => f.id)).toEqual([a.id, b.id]);
    // Characters that are wildcards elsewhere are plain text here.
    const pct = await h.firm({ name: `100% ${t} Clean_Co` });
    expect((await list(`q=${encodeURIComponent(`% ${t} clean_`)}`)).map((f) => f.id)).toEqual([pct.id]);
    expect(await list(`q=${encodeURIComponent(`_${t}`)}`)).toEqual([]);
  });

  it('VEN-012 q matches part of the name ignoring case beyond ASCII, composed or not', async () => {
    const t = tag();
    const school = await h.firm({ name: `Grande \u00c9cole ${t}` });
    const street = await h.firm({ name: `Hauptstraße Bau ${t}` });
    await h.firm({ name: `Ecole ${t}` });
    expect((await list(`q=${encodeURIComponent(`ÉCOLE ${t}`)}`)).map((f) => f.id)).toEqual([school.id]);
    expect((await list(`q=${encodeURIComponent(`e\u0301cole ${t}`)}`)).map((f) => f.id)).toEqual([school.id]);
    expect((await list(`q=${encodeURIComponent(`STRASSE BAU ${t}`)}`)).map((f) => f.id)).toEqual([street.id]);
  });

  it('VEN-010 VEN-011 VEN-012 VEN-013 an unknown, misspelled or bracketed filter is 422, never an unfiltered list', async () => {
    const off = await h.firm({ status: 'inactive' });
    for (const query of [
      'status[]=inactive',
      'statuses=inactive',
      'kinds=utility',
      `id=${off.id}`,
      'Q=x',
      'pagination=1',
    ]) {
      const r = await h.call('GET', `/v1/vendors?${query}`, EDITOR);
      expect(r.status, query).toBe(422);
      expect(r.errors?.[0].code).toBe('validation_failed');
    }
    for (const url of [
      '/v1/vendor-insurance?coverages=umbrella',
      '/v1/vendor-insurance?status[]=expired',
      `/v1/vendors/${off.id}/insurance?coverage=umbrella`,
    ]) {
      expect((await h.call('GET', url, EDITOR)).status, url).toBe(422);
    }
    // Repeated filters are not a list of values either.
    expect((await h.call('GET', '/v1/vendors?status=active&status=inactive', EDITOR)).status).toBe(422);
    expect((await h.call('GET', `/v1/vendors?ids=${off.id}&ids=${off.id}`, EDITOR)).status).toBe(422);
  });

  it('VEN-013 VEN-015 ids edge cases: blanks between commas are ignored, repeats name one firm, none at all is 422', async () => {
    const a = await h.firm();
    const ok = await list(`ids=${a.id},,${a.id.toUpperCase()},`);
    expect(ok.map((f) => f.id)).toEqual([a.id]);
    // 101 mentions of one firm name one firm: not too many.
    expect((await list(`ids=${Array(101).fill(a.id).join(',')}`)).map((f) => f.id)).toEqual([a.id]);
    for (const bad of ['', ',', ' , ', `${a.id};${a.id}`, `{${a.id}}`]) {
      const r = await h.call('GET', `/v1/vendors?ids=${encodeURIComponent(bad)}`, EDITOR);
      expect(r.status, bad).toBe(422);
    }
  });

  it('VEN-013 ids returns only the named firms', async () => {
    const a = await h.firm();
    await h.firm();
    const c = await h.firm();
    const got = await list(`ids=${a.id},${c.id.toUpperCase()}`);
    expect(got.map((f) => f.id).sort()).toEqual([a.id, c.id].sort());
  });

  it('VEN-014 ids naming 100 firms is accepted', async () => {
    const real = [await h.firm(), await h.firm()];
    const ids = [...real.map((f) => f.id), ...Array.from({ length: 98 }, () => randomUUID())];
    const r = await h.call('GET', `/v1/vendors?ids=${ids.join(',')}&pagination[pageSize]=200`, EDITOR);
    expect(r.status).toBe(200);
    expect(r.data.map((f: FirmData) => f.id).sort()).toEqual(real.map((f) => f.id).sort());
  });

  it('VEN-015 ids naming more than 100 firms is 422; malformed ids are 422', async () => {
    const ids = Array.from({ length: 101 }, () => randomUUID());
    const r = await h.call('GET', `/v1/vendors?ids=${ids.join(',')}`, EDITOR);
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({ code: 'too_many_ids', field: 'querystring/ids' });
    for (const bad of ['not-a-uuid', ',,', `urn:uuid:${randomUUID()}`]) {
      const b = await h.call('GET', `/v1/vendors?ids=${encodeURIComponent(bad)}`, EDITOR);
      expect(b.status, bad).toBe(422);
    }
  });

  it('VEN-016 VEN-017 one firm reads with its people and its insurance now; an unknown id is 404 vendor_not_found', async () => {
    const firm = await h.firm();
    const c1 = await h.contact(firm.id, { family_name: 'Zimmer' });
    const c2 = await h.contact(firm.id, { family_name: 'Adams', active: false });
    const old = await h.certificate(firm.id, {
      coverage: 'general_liability',
      starts_on: '2024-01-01',
      expires_on: '2024-12-31',
    });
    const gl = await h.certificate(firm.id, {
      coverage: 'general_liability',
      starts_on: '2025-01-01',
      expires_on: '2025-12-31',
    });
    const wc = await h.certificate(firm.id, {
      coverage: 'workers_compensation',
      starts_on: '2025-03-01',
      expires_on: '2026-02-28',
    });
    const r = await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR);
    expect(r.status).toBe(200);
    expect(r.data.id).toBe(firm.id);
    // People: inactive ones too, by family name.
    expect(r.data.contacts.map((c: { id: string }) => c.id)).toEqual([c2.id, c1.id]);
    expect(r.data.contacts[0]).toMatchObject({ vendor_id: firm.id, email: c2.email, active: false });
    const insurance = r.data.insurance as { id: string; coverage: string }[];
    expect(insurance.map((c) => c.id).sort()).toEqual([gl.id, wc.id].sort());
    expect(insurance.some((c) => c.id === old.id)).toBe(false);

    const missing = await h.call('GET', `/v1/vendors/${randomUUID()}`, EDITOR);
    expect(missing.status).toBe(404);
    expect(missing.errors?.[0].code).toBe('vendor_not_found');
  });

  it('VEN-018 VEN-019 status inactive marks an active firm inactive, and active marks it active again', async () => {
    const firm = await h.firm();
    const off = await h.call('POST', `/v1/vendors/${firm.id}/status`, EDITOR, { data: { status: 'inactive' } });
    expect(off.status).toBe(200);
    expect(off.data.status).toBe('inactive');
    expect((await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR)).data.status).toBe('inactive');
    const on = await h.call('POST', `/v1/vendors/${firm.id}/status`, EDITOR, { data: { status: 'active' } });
    expect(on.status).toBe(200);
    expect((await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR)).data.status).toBe('active');
  });

  it('VEN-018 VEN-058 a status the firm already holds is 200, changes nothing and emits nothing; unknown firm 404; bad value 422', async () => {
    const firm = await h.firm();
    const before = await h.state();
    const same = await h.call('POST', `/v1/vendors/${firm.id}/status`, EDITOR, { data: { status: 'active' } });
    expect(same.status).toBe(200);
    expect(same.data.status).toBe('active');
    const after = (await h.state()) as Record<string, unknown>;
    // Only the idempotency record of the command itself.
    expect({ ...after, idempotency_keys: 0 }).toEqual({ ...(before as Record<string, unknown>), idempotency_keys: 0 });
    const missing = await h.call('POST', `/v1/vendors/${randomUUID()}/status`, EDITOR, {
      data: { status: 'inactive' },
    });
    expect(missing.status).toBe(404);
    expect(missing.errors?.[0].code).toBe('vendor_not_found');
    const bad = await h.call('POST', `/v1/vendors/${firm.id}/status`, EDITOR, { data: { status: 'closed' } });
    expect(bad.status).toBe(422);
  });

  it('VEN-018 VEN-058 concurrent status commands: every one 200, the status changes once, one event', async () => {
    const firm = await h.firm();
    const before = await h.counts();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call('POST', `/v1/vendors/${firm.id}/status`, EDITOR, { data: { status: 'inactive' } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(results.every((r) => r.data.status === 'inactive')).toBe(true);
    const events = (await h.events('vendor.status_changed')).filter((e) => e.payload.data.vendor_id === firm.id);
    expect(events.map((e) => [e.payload.data.previous_status, e.payload.data.status])).toEqual([
      ['active', 'inactive'],
    ]);
    const after = await h.counts();
    expect(after.outbox).toBe(before.outbox + 1);
    expect((await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR)).data.status).toBe('inactive');
    // Opposite commands at once: each event records a real change, and the last one is what reads.
    const mixed = await Promise.all(
      ['active', 'inactive', 'active', 'inactive', 'active'].map((status) =>
        h.call('POST', `/v1/vendors/${firm.id}/status`, EDITOR, { data: { status } }),
      ),
    );
    expect(mixed.every((r) => r.status === 200)).toBe(true);
    const all = (await h.events('vendor.status_changed')).filter((e) => e.payload.data.vendor_id === firm.id);
    for (let i = 1; i < all.length; i++) {
      expect(all[i].payload.data.previous_status).toBe(all[i - 1].payload.data.status);
      expect(all[i].payload.data.status).not.toBe(all[i].payload.data.previous_status);
    }
    expect((await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR)).data.status).toBe(all.at(-1)?.payload.data.status);
  });

  it('VEN-003 VEN-020 VEN-026 text with control characters, line breaks or separators is 422 and nothing is written', async () => {
    const firm = await h.firm();
    const before = await h.state();
    const bad = [
      'tab\there',
      'esc\u001b[31mred',
      'line\u2028break',
      'para\u2029graph',
      'del\u007f',
      'c1\u0085',
      'nul\u0000',
      'lone\ud800',
    ];
    for (const text of bad) {
      const results = [
        await h.call('POST', '/v1/vendors', EDITOR, { data: { name: text, kind: 'supplier', discipline: 'other' } }),
        await h.call('POST', `/v1/vendors/${firm.id}/contacts`, EDITOR, {
          data: { email: `t.${tag()}@firm.test`, given_name: text, family_name: 'Ok' },
        }),
        await h.call('POST', `/v1/vendors/${firm.id}/insurance`, EDITOR, {
          data: { coverage: 'umbrella', policy_number: text, starts_on: '2025-01-01', expires_on: '2025-12-31' },
        }),
      ];
      for (const r of results) {
        expect(r.status, JSON.stringify(text)).toBe(422);
        expect(r.errors?.[0].code).toBe('validation_failed');
      }
    }
    expect(await h.state()).toEqual(before);
    // Letters of any script and inner spaces are fine.
    expect((await h.firm({ name: `Ōsaka Kōgyō ${tag()} 株式会社` })).name).toContain('株式会社');
  });

  it('VEN-009 VEN-012 the list is paginated in page mode and names malformed or blank input 422', async () => {
    const t = tag();
    for (let i = 0; i < 5; i++) await h.firm({ name: `${t} page ${i}` });
    const p1 = await h.call('GET', `/v1/vendors?q=${t}&pagination[pageSize]=2`, EDITOR);
    const p3 = await h.call('GET', `/v1/vendors?q=${t}&pagination[pageSize]=2&pagination[page]=3`, EDITOR);
    expect(p1.data.map((f: FirmData) => f.name)).toEqual([`${t} page 0`, `${t} page 1`]);
    expect(p3.data.map((f: FirmData) => f.name)).toEqual([`${t} page 4`]);
    expect(p1.meta.pagination).toEqual({ mode: 'page', page: 1, pageSize: 2, totalItems: 5, totalPages: 3 });
    const before = await h.state();
    for (const name of ['', '  ', ' Leading', 'Trailing ', 'x'.repeat(201)]) {
      const r = await h.call('POST', '/v1/vendors', EDITOR, { data: { name, kind: 'supplier', discipline: 'other' } });
      expect(r.status, JSON.stringify(name)).toBe(422);
    }
    expect(await h.state()).toEqual(before);
  });
});

describe('issue 14, item 10: firm kinds', () => {
  const add = (data: Record<string, unknown>) =>
    h.call('POST', '/v1/vendors', EDITOR, { data: { name: `Kind ${tag()}`, discipline: 'other', ...data } });

  it.each(['manufacturer', 'distributor', 'equipment_rental', 'staffing_agency', 'government_agency'])(
    '14.10 VEN-004 VEN-007 VEN-011 a firm of kind %s is added, read back and found by the kind filter',
    async (kind) => {
      const r = await add({ kind });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.data).toMatchObject({ kind, kind_description: null });
      expect((await list(`kind=${kind}&q=${encodeURIComponent(r.data.name)}`)).map((f) => f.id)).toEqual([r.data.id]);
    },
  );

  it('14.10 VEN-004 VEN-007 kind other needs kind_description: without it 422 kind_description_required; with it stored and read back', async () => {
    const before = await h.state();
    const r = await add({ kind: 'other' });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({ code: 'kind_description_required', field: 'body/data/kind_description' });
    const blank = await add({ kind: 'other', kind_description: '' });
    expect(blank.status).toBe(422);
    expect(blank.errors?.[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/kind_description' });
    expect(await h.state()).toEqual(before);
    const ok = await add({ kind: 'other', kind_description: 'Testing laboratory' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.data).toMatchObject({ kind: 'other', kind_description: 'Testing laboratory' });
    const one = await h.call('GET', `/v1/vendors/${ok.data.id}`, EDITOR);
    expect(one.data).toMatchObject({ kind: 'other', kind_description: 'Testing laboratory' });
    expect((await list(`kind=other&q=${encodeURIComponent(ok.data.name)}`))[0]).toMatchObject({
      kind_description: 'Testing laboratory',
    });
  });

  it('14.10 VEN-007 kind_description on any other kind is 422 kind_description_not_allowed, nothing written', async () => {
    const before = await h.state();
    const r = await add({ kind: 'supplier', kind_description: 'Lumber' });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({ code: 'kind_description_not_allowed', field: 'body/data/kind_description' });
    expect(await h.state()).toEqual(before);
  });
});
