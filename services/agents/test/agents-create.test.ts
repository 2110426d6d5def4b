import { randomUUID } from 'node:crypto';
import type { App } from '@platform/kit';
import { injectJson } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { agentsConfig } from '../src/config.ts';
import { mailDomainOf } from '../src/start.ts';
import { EDITOR, fid, type Harness, harness, OWNER, STRANGER, testEnv, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

describe('creating an agent', () => {
  it('18 AGT-014 AGT-023 AGT-026 AGT-039 AGT-046 AGT-021 a create without slug proposes one from the name; defaults as the spec says', async () => {
    const a = await h.agent({ name: 'Rent Roll Helper' });
    expect(a.slug).toBe('rent-roll-helper');
    expect(a.email).toBe('rent-roll-helper@agents.dev.company.com');
    expect(a.lifetime).toBe('persistent');
    expect(a.max_turns).toBe(10);
    expect(a.contributes_to_knowledge).toBe(false);
    expect(a.created_by).toBe(fid(OWNER));
    expect(a.owner_fid).toBe(fid(OWNER));
    expect(a.desired_state).toBe('stopped');
    expect(a.generation).toBe(1);
    const again = await h.agent({ name: 'Rent Roll Helper' });
    expect(again.slug).toBe('rent-roll-helper-2');
    expect((await h.events('agent.created')).length).toBeGreaterThanOrEqual(2);
  });

  it('18 AGT-027 a person creating an ephemeral agent is 422 and nothing is written', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/agents', OWNER, { data: { name: 'x', lifetime: 'ephemeral' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].code).toBe('ephemeral_not_allowed');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-111 AGT-327 an unknown agent and an agent the caller has no role on are both 404', async () => {
    const a = await h.agent();
    expect((await h.call('GET', `/v1/agents/${a.id}`, STRANGER)).status).toBe(404);
    expect((await h.call('GET', '/v1/agents/01900000-0000-7000-8000-000000000000', OWNER)).status).toBe(404);
    const mine = await h.call('GET', `/v1/agents/${a.id}`, OWNER);
    expect(mine.status).toBe(200);
    expect(mine.data.caller_role).toBe('owner');
  });
});

describe('creating an agent as an agent', () => {
  it('18 AGT-028 AGT-102 AGT-103 AGT-022 the service token with X-Platform-Agent-Id creates for that agent’s owner, with its members, ephemeral if asked', async () => {
    const parent = await h.agent();
    await h.ok('PUT', `/v1/agents/${parent.id}/members/${fid(EDITOR)}`, { role: 'editor' });
    await h.ok('PUT', `/v1/agents/${parent.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    const made = await h.agent({ name: 'Made by an agent', lifetime: 'ephemeral' }, { service: parent.id });
    expect(made.lifetime).toBe('ephemeral');
    expect(made.owner_fid).toBe(fid(OWNER));
    expect(made.created_by).toBe(`agent:${parent.id}`);
    const members = async (id: string) =>
      ((await h.call('GET', `/v1/agents/${id}/members`, OWNER)).data as { principal_fid: string; role: string }[]).map(
        (m) => [m.principal_fid, m.role],
      );
    expect(await members(made.id)).toEqual(await members(parent.id));
    expect(await members(made.id)).toEqual([
      [fid(OWNER), 'owner'],
      [fid(EDITOR), 'editor'],
      [fid(VIEWER), 'viewer'],
    ]);
  });

  it('18 AGT-024 the same slug gets the prod mailbox domain in prod and another elsewhere', async () => {
    const dev = await h.agent({ slug: 'same-mailbox' });
    expect(dev.email).toBe('same-mailbox@agents.dev.company.com');
    expect((await h.call('DELETE', `/v1/agents/${dev.id}`, OWNER)).status).toBe(200);
    const prodConfig = agentsConfig(testEnv({ AGENTS_ENVIRONMENT: 'prod' }));
    const prod = (await buildApp({
      database: h.database,
      authenticator: agentsAuthenticator(prodConfig),
      callers: callerPolicy(prodConfig),
      mailDomain: mailDomainOf(prodConfig),
      logLevel: 'silent',
    })) as App;
    try {
      const r = await injectJson(prod, 'POST', '/v1/agents', {
        headers: { 'x-dev-principal': OWNER },
        body: { data: { slug: 'same-mailbox' } },
        key: randomUUID(),
      });
      expect(r.status).toBe(201);
      expect(r.data.email).toBe('same-mailbox@agents.company.com');
    } finally {
      await prod.close();
    }
  });
});
