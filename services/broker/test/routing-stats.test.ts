import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DecisionRecord, insertDecisions } from '../src/store/routing-decisions.ts';
import { ADMIN, fid, type Harness, harness, OTHER, STAFF } from './harness.ts';

let h: Harness;
const AGENT = 'agent-stats@agents.broker.test';
const AGENT_FID = '0190b7a0-0000-7000-8000-0000000000a1';

const decision = (over: Partial<DecisionRecord>): DecisionRecord => ({
  decided_at: new Date('2025-06-10T12:00:00Z'),
  actor_fid: fid(STAFF),
  provider: 'openai',
  family: 'gpt-4.1',
  tier: 'light',
  classifier: 'quick_check',
  outcome: 'routed',
  requested_model: 'gpt-4.1',
  model: 'gpt-4.1-nano',
  rule_id: null,
  grading_cost_micros: 0,
  savings_micros: 1_000,
  ...over,
});

beforeAll(async () => {
  h = await harness({ now: '2025-06-16T15:00:00Z' });
  const now = h.now();
  await h.db
    .insertInto('identities')
    .values({
      fid: AGENT_FID,
      email: AGENT,
      name: 'Stats agent',
      kind: 'agent',
      creator_fid: fid(STAFF),
      creator_email: STAFF,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await insertDecisions(h.db, [
    decision({}),
    decision({ decided_at: new Date('2025-06-10T18:00:00Z'), savings_micros: 500 }),
    decision({
      decided_at: new Date('2025-06-11T08:00:00Z'),
      outcome: 'kept',
      tier: 'heavy',
      model: 'gpt-4.1',
      savings_micros: 0,
    }),
    decision({
      decided_at: new Date('2025-06-11T09:00:00Z'),
      outcome: 'rule',
      classifier: null,
      rule_id: 'cheap',
      tier: 'standard',
      model: 'gpt-4.1-mini',
      savings_micros: 700,
    }),
    decision({
      decided_at: new Date('2025-06-12T09:00:00Z'),
      actor_fid: AGENT_FID,
      provider: 'anthropic',
      family: 'claude',
      tier: 'standard',
      classifier: 'gpt-4.1-nano',
      requested_model: 'claude-opus-4-1',
      model: 'claude-sonnet-4-5',
      grading_cost_micros: 40,
      savings_micros: 9_000,
    }),
    decision({
      decided_at: new Date('2025-06-12T10:00:00Z'),
      actor_fid: fid(OTHER),
      outcome: 'off',
      classifier: null,
      tier: 'heavy',
      model: 'gpt-4.1',
      savings_micros: 0,
    }),
    decision({ decided_at: new Date('2025-05-31T23:59:59Z'), savings_micros: 3 }),
  ]);
});
afterAll(async () => h.close_());

const STATS = '/v1/routing/stats';
type Row = {
  day: string;
  family: string | null;
  tier: string;
  classifier: string | null;
  outcome: string;
  decisions: number;
};
const key = (r: Row) => [r.day, r.family, r.tier, r.classifier, r.outcome, r.decisions];

describe('GET /v1/routing/stats', () => {
  it('BRK-099 counts decisions by day, family, tier, classifier and outcome (with savings and grading cost)', async () => {
    const r = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30`, ADMIN);
    expect(r.status).toBe(200);
    expect(r.data.map(key)).toEqual([
      ['2025-06-10', 'gpt-4.1', 'light', 'quick_check', 'routed', 2],
      ['2025-06-11', 'gpt-4.1', 'heavy', 'quick_check', 'kept', 1],
      ['2025-06-11', 'gpt-4.1', 'standard', null, 'rule', 1],
      ['2025-06-12', 'claude', 'standard', 'gpt-4.1-nano', 'routed', 1],
      ['2025-06-12', 'gpt-4.1', 'heavy', null, 'off', 1],
    ]);
    expect(r.data[0]).toMatchObject({ substituted: 2, savings_micros: 1_500, grading_cost_micros: 0 });
    expect(r.data[1]).toMatchObject({ substituted: 0, savings_micros: 0 });
    expect(r.data[3]).toMatchObject({ substituted: 1, savings_micros: 9_000, grading_cost_micros: 40 });
  });

  it('BRK-100 from: no decision before from is counted', async () => {
    const r = await h.call('GET', `${STATS}?from=2025-06-11&to=2025-06-30`, ADMIN);
    expect(r.data.length).toBeGreaterThan(0);
    expect(r.data.every((x: Row) => x.day >= '2025-06-11')).toBe(true);
    const may = await h.call('GET', `${STATS}?from=2025-05-01&to=2025-06-10`, ADMIN);
    expect(may.data.map(key)).toEqual([
      ['2025-05-31', 'gpt-4.1', 'light', 'quick_check', 'routed', 1],
      ['2025-06-10', 'gpt-4.1', 'light', 'quick_check', 'routed', 2],
    ]);
  });

  it('BRK-101 to: no decision after to is counted', async () => {
    const r = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-10`, ADMIN);
    expect(r.data.map(key)).toEqual([['2025-06-10', 'gpt-4.1', 'light', 'quick_check', 'routed', 2]]);
  });

  it('BRK-102 actor (a FID or an email): only that actor’s decisions', async () => {
    const byEmail = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30&actor=${AGENT}`, ADMIN);
    expect(byEmail.data.map(key)).toEqual([['2025-06-12', 'claude', 'standard', 'gpt-4.1-nano', 'routed', 1]]);
    const byFid = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30&actor=${fid(OTHER)}`, ADMIN);
    expect(byFid.data.map(key)).toEqual([['2025-06-12', 'gpt-4.1', 'heavy', null, 'off', 1]]);
    const nobody = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30&actor=nobody@broker.test`, ADMIN);
    expect(nobody.data).toEqual([]);
  });

  it('BRK-103 family: only the family’s decisions', async () => {
    const r = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30&family=claude`, ADMIN);
    expect(r.data.map(key)).toEqual([['2025-06-12', 'claude', 'standard', 'gpt-4.1-nano', 'routed', 1]]);
  });

  it('BRK-104 classifier: only the classifier’s decisions', async () => {
    const r = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30&classifier=quick_check`, ADMIN);
    expect(r.data.map(key)).toEqual([
      ['2025-06-10', 'gpt-4.1', 'light', 'quick_check', 'routed', 2],
      ['2025-06-11', 'gpt-4.1', 'heavy', 'quick_check', 'kept', 1],
    ]);
  });

  it('without from and to: this month (UTC) up to today', async () => {
    const r = await h.call('GET', STATS, ADMIN);
    expect(r.data.some((x: Row) => x.day === '2025-05-31')).toBe(false);
    expect(r.data.reduce((s: number, x: Row) => s + x.decisions, 0)).toBe(6);
  });

  it('non-admins see their own decisions and those of identities they created; naming another is 403', async () => {
    const own = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30`, STAFF);
    expect(own.status).toBe(200);
    expect(own.data.reduce((s: number, x: Row) => s + x.decisions, 0)).toBe(5);
    expect(own.data.some((x: Row) => x.outcome === 'off')).toBe(false);
    const agent = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30&actor=${AGENT}`, STAFF);
    expect(agent.data.map(key)).toEqual([['2025-06-12', 'claude', 'standard', 'gpt-4.1-nano', 'routed', 1]]);
    const other = await h.call('GET', `${STATS}?actor=${OTHER}`, STAFF);
    expect([other.status, other.errors[0].code]).toEqual([403, 'forbidden']);
    const theirs = await h.call('GET', `${STATS}?from=2025-06-01&to=2025-06-30`, OTHER);
    expect(theirs.data.map(key)).toEqual([['2025-06-12', 'gpt-4.1', 'heavy', null, 'off', 1]]);
    expect((await h.call('GET', STATS, null)).status).toBe(401);
  });

  it('BRK-064 a malformed day or from after to is 422 bad_period naming the field', async () => {
    const bad = await h.call('GET', `${STATS}?from=June`, ADMIN);
    expect([bad.status, bad.errors[0].code, bad.errors[0].field]).toEqual([422, 'bad_period', 'querystring/from']);
    const inverted = await h.call('GET', `${STATS}?from=2025-06-12&to=2025-06-11`, ADMIN);
    expect([inverted.status, inverted.errors[0].code]).toEqual([422, 'bad_period']);
  });
});
