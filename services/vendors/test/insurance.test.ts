import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertificateData, EDITOR, type Harness, harness, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  // Today is 2025-06-15 (UTC) for the status filter.
  h = await harness({ now: '2025-06-15T12:00:00Z' });
});
afterAll(async () => h.close_());

const certificatesOf = async (firmId: string) => {
  const r = await h.call('GET', `/v1/vendors/${firmId}/insurance?pagination[pageSize]=200`, EDITOR);
  expect(r.status).toBe(200);
  return r.data as CertificateData[];
};
const body = (data: Record<string, unknown>) => ({
  data: {
    coverage: 'general_liability',
    policy_number: `P-${tag()}`,
    starts_on: '2025-01-01',
    expires_on: '2025-12-31',
    ...data,
  },
});

describe('recording certificates', () => {
  it('VEN-026 a certificate with coverage, policy number, start and expiry is recorded and listed for the firm', async () => {
    const firm = await h.firm();
    const r = await h.call(
      'POST',
      `/v1/vendors/${firm.id}/insurance`,
      EDITOR,
      body({
        coverage: 'auto_liability',
        policy_number: 'AL-1',
        insurer: 'Mutual Co',
        starts_on: '2025-02-01',
        expires_on: '2026-01-31',
      }),
    );
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      vendor_id: firm.id,
      coverage: 'auto_liability',
      policy_number: 'AL-1',
      insurer: 'Mutual Co',
      starts_on: '2025-02-01',
      expires_on: '2026-01-31',
    });
    expect(r.data.recorded_at).toBe('2025-06-15T12:00:00.000Z');
    expect((await certificatesOf(firm.id)).map((c) => c.id)).toEqual([r.data.id]);
  });

  it('VEN-027 the same coverage, policy number and start date again for the firm is 409 insurance_exists, nothing written', async () => {
    const firm = await h.firm();
    await h.certificate(firm.id, { policy_number: 'GL-9', starts_on: '2025-01-01', expires_on: '2025-12-31' });
    const before = await h.state();
    const r = await h.call(
      'POST',
      `/v1/vendors/${firm.id}/insurance`,
      EDITOR,
      body({ policy_number: 'GL-9', starts_on: '2025-01-01', expires_on: '2026-06-30' }),
    );
    expect(r.status).toBe(409);
    expect(r.errors?.[0].code).toBe('insurance_exists');
    expect(await h.state()).toEqual(before);
    // Another start date, or another coverage, is another certificate.
    await h.certificate(firm.id, { policy_number: 'GL-9', starts_on: '2026-01-01', expires_on: '2026-12-31' });
    await h.certificate(firm.id, { coverage: 'umbrella', policy_number: 'GL-9', starts_on: '2025-01-01' });
  });

  it('VEN-027 concurrent records of one triple: one 201, the others 409 insurance_exists, one certificate, one event', async () => {
    const firm = await h.firm();
    const before = await h.counts();
    const results = await Promise.all(
      ['2025-12-31', '2026-01-31', '2026-02-28', '2026-03-31'].map((expires_on) =>
        h.call(
          'POST',
          `/v1/vendors/${firm.id}/insurance`,
          EDITOR,
          body({ policy_number: 'RACE-1', starts_on: '2025-01-01', expires_on }),
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.errors?.[0].code).toBe('insurance_exists');
    const winner = results.find((r) => r.status === 201)?.data as CertificateData;
    expect((await certificatesOf(firm.id)).map((c) => c.id)).toEqual([winner.id]);
    const after = await h.counts();
    expect(after.certificates).toBe(before.certificates + 1);
    expect(after.current_certificates).toBe(before.current_certificates + 1);
    expect(after.outbox).toBe(before.outbox + 1);
    expect(after.idempotency_keys).toBe(before.idempotency_keys + 1);
    // The firm's insurance now is the one recorded, with its own expiry.
    const now = (await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR)).data.insurance as CertificateData[];
    expect(now.map((c) => [c.id, c.expires_on])).toEqual([[winner.id, winner.expires_on]]);
  });

  it('VEN-028 the same triple for another firm is accepted', async () => {
    const a = await h.firm();
    const b = await h.firm();
    const triple = { coverage: 'property', policy_number: 'SHARED-1', starts_on: '2025-03-01' };
    await h.certificate(a.id, triple);
    const r = await h.call('POST', `/v1/vendors/${b.id}/insurance`, EDITOR, body(triple));
    expect(r.status).toBe(201);
    expect((await certificatesOf(b.id)).map((c) => c.id)).toEqual([r.data.id]);
  });

  it('VEN-029 a certificate expiring before it starts is 422 expiry_before_start and nothing is written', async () => {
    const firm = await h.firm();
    const before = await h.state();
    const r = await h.call(
      'POST',
      `/v1/vendors/${firm.id}/insurance`,
      EDITOR,
      body({ starts_on: '2025-06-01', expires_on: '2025-05-31' }),
    );
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({ code: 'expiry_before_start', field: 'body/data/expires_on' });
    expect(await h.state()).toEqual(before);
  });

  it('VEN-030 a certificate expiring on its start date is accepted', async () => {
    const firm = await h.firm();
    const r = await h.call(
      'POST',
      `/v1/vendors/${firm.id}/insurance`,
      EDITOR,
      body({ starts_on: '2025-06-01', expires_on: '2025-06-01' }),
    );
    expect(r.status).toBe(201);
  });

  it('VEN-031 an unknown coverage is 422 naming the field and nothing is written; so are malformed dates', async () => {
    const firm = await h.firm();
    const before = await h.state();
    const r = await h.call('POST', `/v1/vendors/${firm.id}/insurance`, EDITOR, body({ coverage: 'alien_abduction' }));
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/coverage' });
    for (const data of [{ starts_on: '2025-13-01' }, { expires_on: '0000-01-01' }, { policy_number: '' }]) {
      expect((await h.call('POST', `/v1/vendors/${firm.id}/insurance`, EDITOR, body(data))).status).toBe(422);
    }
    expect(await h.state()).toEqual(before);
  });

  it('VEN-026 VEN-032 recording for an unknown firm is 404 vendor_not_found; so is its certificate list', async () => {
    const id = randomUUID();
    const before = await h.state();
    const r = await h.call('POST', `/v1/vendors/${id}/insurance`, EDITOR, body({}));
    expect(r.status).toBe(404);
    expect(r.errors?.[0].code).toBe('vendor_not_found');
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', `/v1/vendors/${id}/insurance`, EDITOR)).status).toBe(404);
  });

  it('VEN-032 the firm list holds every certificate it gave, expired and superseded included, newest start first', async () => {
    const firm = await h.firm();
    const expired = await h.certificate(firm.id, { starts_on: '2023-01-01', expires_on: '2023-12-31' });
    const superseded = await h.certificate(firm.id, { starts_on: '2024-01-01', expires_on: '2025-12-31' });
    const latest = await h.certificate(firm.id, { starts_on: '2025-01-01', expires_on: '2025-12-31' });
    const other = await h.certificate(firm.id, { coverage: 'umbrella', starts_on: '2024-06-01' });
    expect((await certificatesOf(firm.id)).map((c) => c.id)).toEqual([latest.id, other.id, superseded.id, expired.id]);
    const page = await h.call(
      'GET',
      `/v1/vendors/${firm.id}/insurance?pagination[pageSize]=3&pagination[page]=2`,
      EDITOR,
    );
    expect(page.data.map((c: CertificateData) => c.id)).toEqual([expired.id]);
    expect(page.meta.pagination).toMatchObject({ totalItems: 4, totalPages: 2 });
  });
});

describe('GET /v1/vendor-insurance', () => {
  it('VEN-033 each active firm has one certificate per coverage there, its latest (latest start; on equal starts the later recorded)', async () => {
    const firm = await h.firm();
    h.setNow('2025-06-15T09:00:00Z');
    const old = await h.certificate(firm.id, { starts_on: '2024-01-01', expires_on: '2024-12-31' });
    h.setNow('2025-06-15T10:00:00Z');
    const newer = await h.certificate(firm.id, { starts_on: '2025-01-01', expires_on: '2025-12-31' });
    // Recorded later but starting earlier (a late-filed old certificate): not the latest.
    h.setNow('2025-06-15T11:00:00Z');
    await h.certificate(firm.id, { starts_on: '2024-06-01', expires_on: '2026-05-31' });
    // Two of one coverage starting the same day: the later recorded wins.
    h.setNow('2025-06-15T12:00:00Z');
    const first = await h.certificate(firm.id, {
      coverage: 'umbrella',
      starts_on: '2025-04-01',
      expires_on: '2026-03-31',
    });
    h.setNow('2025-06-15T13:00:00Z');
    const second = await h.certificate(firm.id, {
      coverage: 'umbrella',
      starts_on: '2025-04-01',
      expires_on: '2026-01-31',
    });
    h.setNow('2025-06-15T12:00:00Z');

    const { items } = await h.vendorInsurance();
    const mine = items.filter((c) => c.vendor_id === firm.id);
    expect(mine.map((c) => c.id).sort()).toEqual([newer.id, second.id].sort());
    expect(mine.find((c) => c.id === newer.id)).toMatchObject({
      coverage: 'general_liability',
      vendor_name: firm.name,
    });
    expect(mine.some((c) => c.id === old.id || c.id === first.id)).toBe(false);
    // One per firm and coverage across the whole list.
    const keys = items.map((c) => `${c.vendor_id} ${c.coverage} ${c.coverage_description ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
    // The single-firm read's insurance now is the same set.
    const one = await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR);
    expect(one.data.insurance.map((c: CertificateData) => c.id).sort()).toEqual([newer.id, second.id].sort());
  });

  it('VEN-034 an inactive firm has no certificate there; reactivated, its latest ones are back', async () => {
    const firm = await h.firm();
    const gl = await h.certificate(firm.id, { expires_on: '2025-09-30' });
    const wc = await h.certificate(firm.id, { coverage: 'workers_compensation' });
    const before = await h.vendorInsurance();
    await h.setStatus(firm.id, 'inactive');
    const off = await h.vendorInsurance();
    expect(off.items.some((c) => c.vendor_id === firm.id)).toBe(false);
    expect(off.total).toBe(before.total - 2);
    // Recorded while inactive: still not listed.
    await h.certificate(firm.id, { coverage: 'umbrella' });
    expect((await h.vendorInsurance()).items.some((c) => c.vendor_id === firm.id)).toBe(false);
    await h.setStatus(firm.id, 'active');
    const on = await h.vendorInsurance();
    expect(
      on.items
        .filter((c) => c.vendor_id === firm.id)
        .map((c) => c.coverage)
        .sort(),
    ).toEqual(['general_liability', 'umbrella', 'workers_compensation']);
    expect(on.items.map((c) => c.id)).toEqual(expect.arrayContaining([gl.id, wc.id]));
    const added = await h.firm({ status: 'inactive' });
    await h.certificate(added.id);
    expect((await h.vendorInsurance()).items.some((c) => c.vendor_id === added.id)).toBe(false);
  });

  it('VEN-035 the list is ordered by expiry date ascending, across pages', async () => {
    const firm = await h.firm();
    for (const [coverage, expires_on] of [
      ['builders_risk', '2027-03-01'],
      ['pollution_liability', '2025-07-01'],
      ['professional_liability', '2026-01-15'],
    ]) {
      await h.certificate(firm.id, { coverage, starts_on: '2025-01-01', expires_on });
    }
    const { items, total } = await h.vendorInsurance();
    expect(items).toHaveLength(total);
    const dates = items.map((c) => c.expires_on);
    expect(dates).toEqual([...dates].sort());
    const past = await h.call('GET', '/v1/vendor-insurance?pagination[page]=100000', EDITOR);
    expect(past.status).toBe(200);
    expect(past.data).toEqual([]);
    expect(past.meta.pagination.totalItems).toBe(total);
    const p1 = await h.call('GET', '/v1/vendor-insurance?pagination[pageSize]=3', EDITOR);
    const p2 = await h.call('GET', '/v1/vendor-insurance?pagination[pageSize]=3&pagination[page]=2', EDITOR);
    expect([...p1.data, ...p2.data].map((c: CertificateData) => c.id)).toEqual(items.slice(0, 6).map((c) => c.id));
  });

  it('VEN-036 coverage filters the list', async () => {
    const firm = await h.firm();
    const builders = await h.certificate(firm.id, { coverage: 'builders_risk', expires_on: '2026-02-01' });
    const { items, total } = await h.vendorInsurance('coverage=builders_risk');
    expect(items.length).toBe(total);
    expect(items.every((c) => c.coverage === 'builders_risk')).toBe(true);
    expect(items.map((c) => c.id)).toContain(builders.id);
    expect((await h.call('GET', '/v1/vendor-insurance?coverage=flood', EDITOR)).status).toBe(422);
  });

  it('VEN-037 status is accepted: current is expiring today or later, expired before today; other values are 422', async () => {
    const firm = await h.firm();
    const lapsed = await h.certificate(firm.id, {
      coverage: 'property',
      starts_on: '2024-06-15',
      expires_on: '2025-06-14',
    });
    const lastDay = await h.certificate(firm.id, {
      coverage: 'umbrella',
      starts_on: '2024-06-15',
      expires_on: '2025-06-15',
    });
    const all = await h.vendorInsurance();
    const current = await h.vendorInsurance('status=current');
    const expired = await h.vendorInsurance('status=expired');
    expect(current.items.every((c) => c.expires_on >= '2025-06-15')).toBe(true);
    expect(expired.items.every((c) => c.expires_on < '2025-06-15')).toBe(true);
    expect(current.items.map((c) => c.id)).toContain(lastDay.id);
    expect(expired.items.map((c) => c.id)).toContain(lapsed.id);
    expect(current.total + expired.total).toBe(all.total);
    const both = await h.vendorInsurance('status=expired&coverage=property');
    expect(both.items.map((c) => c.id)).toContain(lapsed.id);
    expect(both.items.every((c) => c.coverage === 'property' && c.expires_on < '2025-06-15')).toBe(true);
    expect((await h.call('GET', '/v1/vendor-insurance?status=active', EDITOR)).status).toBe(422);
  });

  it('VEN-033 VEN-034 concurrent certificates and status changes leave the current certificates and the totals exact', async () => {
    const firms = [await h.firm(), await h.firm(), await h.firm()];
    const coverages = ['general_liability', 'umbrella'];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      const f = firms[i % firms.length];
      work.push(
        h.call(
          'POST',
          `/v1/vendors/${f.id}/insurance`,
          EDITOR,
          body({
            coverage: coverages[i % 2],
            starts_on: `2025-0${1 + (i % 6)}-01`,
            expires_on: `2026-0${1 + ((i * 5) % 9)}-01`,
          }),
        ),
      );
      if (i % 4 === 0) {
        work.push(
          h.call('POST', `/v1/vendors/${f.id}/status`, EDITOR, {
            data: { status: i % 8 === 0 ? 'inactive' : 'active' },
          }),
        );
      }
    }
    const results = (await Promise.all(work)) as { status: number }[];
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    // What the triggers keep, against what it must be, recomputed from scratch.
    const drift = await sql<{ n: number }>`
      WITH expected AS (
        SELECT DISTINCT ON (c.firm_id, c.coverage, c.coverage_key) c.firm_id, c.coverage, c.id, c.expires_on,
          f.status = 'active' AS active
        FROM certificates c JOIN firms f ON f.id = c.firm_id
        ORDER BY c.firm_id, c.coverage, c.coverage_key, c.starts_on DESC, c.recorded_at DESC, c.id DESC
      ), mismatched AS (
        (SELECT firm_id, coverage, id, expires_on, active FROM expected
         EXCEPT SELECT firm_id, coverage, certificate_id, expires_on, active FROM current_certificates)
        UNION ALL
        (SELECT firm_id, coverage, certificate_id, expires_on, active FROM current_certificates
         EXCEPT SELECT firm_id, coverage, id, expires_on, active FROM expected)
      ), counted AS (
        SELECT coverage, expires_on, count(*)::int AS n FROM expected WHERE active GROUP BY 1, 2
      ), bad_counts AS (
        SELECT 1 FROM current_expiry_counts k FULL JOIN counted c USING (coverage, expires_on)
        WHERE coalesce(k.certificates, 0) <> coalesce(c.n, 0)
      )
      SELECT ((SELECT count(*) FROM mismatched) + (SELECT count(*) FROM bad_counts))::int AS n`.execute(h.db);
    expect(drift.rows[0].n).toBe(0);
  });
});

describe('issue 14, item 10: coverage lines a certificate may name', () => {
  const record = (firmId: string, data: Record<string, unknown>) =>
    h.call('POST', `/v1/vendors/${firmId}/insurance`, EDITOR, body(data));

  it.each([
    'employers_liability',
    'excess_liability',
    'cyber_liability',
    'inland_marine',
    'crime',
    'employment_practices_liability',
    'garage_liability',
    'liquor_liability',
    'owners_contractors_protective',
    'railroad_protective_liability',
  ])('14.10 VEN-026 VEN-031 coverage %s is recorded and reads back, with no coverage_description', async (coverage) => {
    const firm = await h.firm();
    const r = await record(firm.id, { coverage });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.data).toMatchObject({ coverage, coverage_description: null });
    expect((await certificatesOf(firm.id)).map((c) => c.coverage)).toEqual([coverage]);
    const listed = await h.vendorInsurance(`coverage=${coverage}`);
    expect(listed.items.map((c) => c.id)).toContain(r.data.id);
  });

  it('14.10 VEN-031 coverage other without coverage_description is 422 coverage_description_required, nothing written', async () => {
    const firm = await h.firm();
    const before = await h.state();
    const r = await record(firm.id, { coverage: 'other' });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({
      code: 'coverage_description_required',
      field: 'body/data/coverage_description',
    });
    // A blank or multi-line description fails the schema.
    for (const coverage_description of ['', ' Crime', 'Crime\nand theft']) {
      const bad = await record(firm.id, { coverage: 'other', coverage_description });
      expect(bad.status).toBe(422);
      expect(bad.errors?.[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/coverage_description' });
    }
    expect(await h.state()).toEqual(before);
  });

  it('14.10 VEN-031 coverage_description on a named coverage is 422 coverage_description_not_allowed, nothing written', async () => {
    const firm = await h.firm();
    const before = await h.state();
    const r = await record(firm.id, { coverage: 'cyber_liability', coverage_description: 'Cyber' });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]).toMatchObject({
      code: 'coverage_description_not_allowed',
      field: 'body/data/coverage_description',
    });
    expect(await h.state()).toEqual(before);
  });

  it('14.10 VEN-026 VEN-033 VEN-036 coverage other with a description is recorded; each description is its own line in insurance now', async () => {
    const firm = await h.firm();
    const riggers = await record(firm.id, {
      coverage: 'other',
      coverage_description: "Riggers' liability",
      policy_number: 'RL-1',
      expires_on: '2025-09-30',
    });
    expect(riggers.status, JSON.stringify(riggers.body)).toBe(201);
    expect(riggers.data).toMatchObject({ coverage: 'other', coverage_description: "Riggers' liability" });
    const aviation = await record(firm.id, {
      coverage: 'other',
      coverage_description: 'Aviation liability',
      policy_number: 'AV-1',
    });
    expect(aviation.status).toBe(201);
    // A later riggers certificate (the description in another case) supersedes the first one only.
    const riggers2 = await record(firm.id, {
      coverage: 'other',
      coverage_description: "RIGGERS' LIABILITY",
      policy_number: 'RL-2',
      starts_on: '2025-03-01',
      expires_on: '2026-02-28',
    });
    expect(riggers2.status).toBe(201);
    const one = await h.call('GET', `/v1/vendors/${firm.id}`, EDITOR);
    expect(one.data.insurance.map((c: CertificateData) => c.id).sort()).toEqual(
      [aviation.data.id, riggers2.data.id].sort(),
    );
    const listed = (await h.vendorInsurance('coverage=other')).items.filter((c) => c.vendor_id === firm.id);
    expect(listed.map((c) => c.id).sort()).toEqual([aviation.data.id, riggers2.data.id].sort());
    expect(listed.find((c) => c.id === aviation.data.id)?.coverage_description).toBe('Aviation liability');
    // The same policy number and start on the same other line again is 409 insurance_exists.
    const again = await record(firm.id, {
      coverage: 'other',
      coverage_description: 'aviation LIABILITY',
      policy_number: 'AV-1',
    });
    expect(again.status).toBe(409);
    expect(again.errors?.[0].code).toBe('insurance_exists');
  });
});
