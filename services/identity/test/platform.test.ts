import { routesMissingSchemas, validateOpenApi } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof identityHarness>>;
beforeAll(async () => {
  h = await identityHarness();
}, 60_000);
afterAll(async () => h?.close());

describe('identity as a platform service', () => {
  it('serves discovery, liveness, readiness and a valid generated OpenAPI document', async () => {
    for (const url of ['/', '/healthz', '/readyz', '/api-docs']) {
      expect((await h.app.inject({ url })).statusCode, url).toBeLessThan(400);
    }
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(routesMissingSchemas(doc)).toEqual([]);
  });

  it('PLT-030 every /v1 route is in the OpenAPI document and the sign-in pages are not', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/v1/me/profile',
      '/v1/authz/me',
      '/v1/people',
      '/v1/people/{fid}/grants',
      '/v1/principals/lookup',
      '/v1/gateway/token',
      '/v1/roles',
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(paths.some((p) => p.startsWith('/interaction'))).toBe(false);
    expect(paths.filter((p) => !['/', '/healthz', '/readyz'].includes(p)).every((p) => p.startsWith('/v1/'))).toBe(
      true,
    );
  });

  it('SIGN-004 the discovery document names the loopback IP issuer and its endpoints at the contract paths', async () => {
    const d = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(d.issuer).toBe(h.issuer);
    expect(h.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(d.authorization_endpoint).toBe(`${h.issuer}/oauth2/auth`);
    expect(d.token_endpoint).toBe(`${h.issuer}/oauth2/token`);
    expect(d.end_session_endpoint).toBe(`${h.issuer}/oauth2/sessions/logout`);
    expect(d.jwks_uri).toBe(`${h.issuer}/.well-known/jwks.json`);
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.response_types_supported).toEqual(['code']);
    expect(d.scopes_supported).toEqual(['openid']);
  });
});
