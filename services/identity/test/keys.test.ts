import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, importJWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { keysFromConfig, loadOrCreateKeys, publicJwk, rotateKeys } from '../src/oauth/keys.ts';

const dir = mkdtempSync(join(tmpdir(), 'identity-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sign = async (key: Record<string, unknown>) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: key.kid as string, typ: 'at+jwt' })
    .setIssuer('http://127.0.0.1:4100')
    .setExpirationTime('1h')
    .sign(await importJWK(key as never, 'RS256'));

describe('signing keys', () => {
  it('are generated on first start, kept private to the owner, and the same on the next start', async () => {
    const file = join(dir, 'keys.json');
    const first = await loadOrCreateKeys(file);
    expect(first.signing).toHaveLength(1);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect((await loadOrCreateKeys(file)).signing[0]?.kid).toBe(first.signing[0]?.kid);
  });

  it('SIGN-002 rotation signs with a new key and keeps the previous public key in the JWKS', async () => {
    const file = join(dir, 'rotate.json');
    const before = await loadOrCreateKeys(file);
    const oldToken = await sign(before.signing[0] as never);
    const after = await rotateKeys(file);
    expect(after.signing[0]?.kid).not.toBe(before.signing[0]?.kid);
    expect(after.signing[1]?.kid).toBe(before.signing[0]?.kid);
    const jwks = createLocalJWKSet({ keys: after.signing.map(publicJwk) });
    await expect(jwtVerify(oldToken, jwks)).resolves.toBeTruthy();
    await expect(jwtVerify(await sign(after.signing[0] as never), jwks)).resolves.toBeTruthy();
    // A third rotation drops the oldest key.
    const third = await rotateKeys(file);
    expect(third.signing.map((k) => k.kid)).not.toContain(before.signing[0]?.kid);
  });

  it('the published JWKS never holds private parts', async () => {
    const keys = await loadOrCreateKeys(join(dir, 'pub.json'));
    for (const k of keys.signing.map(publicJwk))
      for (const p of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(k).not.toHaveProperty(p);
  });

  it('distributed keys come from SIGNING_KEYS and need COOKIE_KEYS; bad values stop start-up naming the variable', async () => {
    const keys = await loadOrCreateKeys(join(dir, 'dist.json'));
    const jwks = JSON.stringify({ keys: keys.signing });
    expect(keysFromConfig(jwks, 'a,b', []).cookies).toEqual(['a', 'b']);
    expect(() => keysFromConfig(jwks, undefined, [])).toThrow('COOKIE_KEYS');
    expect(() => keysFromConfig('not json', 'a', [])).toThrow('SIGNING_KEYS');
    expect(() => keysFromConfig(JSON.stringify({ keys: keys.signing.map(publicJwk) }), 'a', [])).toThrow(
      'SIGNING_KEYS',
    );
  });
});
