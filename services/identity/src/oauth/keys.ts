import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '@platform/kit';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

/** Private signing keys (newest first) and cookie keys. Public parts go to the JWKS. */
export interface KeyMaterial {
  signing: JWK[];
  /** The access-gateway stand-in's own keys (local only): a separate key set, as in production. */
  gateway: JWK[];
  cookies: string[];
}

export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
}

export async function newKeyMaterial(): Promise<KeyMaterial> {
  return {
    signing: [await newSigningKey()],
    gateway: [await newSigningKey()],
    cookies: [randomBytes(32).toString('base64url')],
  };
}

/** The public half of a key: what the JWKS may show. */
export const publicJwk = ({ kty, n, e, crv, x, y, kid, alg, use }: JWK): JWK =>
  Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined));

const write = (file: string, keys: KeyMaterial) => {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(keys, null, 2), { mode: 0o600 });
  renameSync(tmp, file);
};

/**
 * Embedded mode: keys are generated on first start and kept in the data folder, so tokens and
 * sessions survive a restart.
 */
export async function loadOrCreateKeys(file: string): Promise<KeyMaterial> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as KeyMaterial;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const keys = await newKeyMaterial();
  write(file, keys);
  return keys;
}

/**
 * Rotation: a new key signs from now on; the previous one stays in the JWKS so tokens it signed
 * verify until they expire. Older keys are dropped.
 */
export async function rotateKeys(file: string): Promise<KeyMaterial> {
  const keys = await loadOrCreateKeys(file);
  const rotated = { ...keys, signing: [await newSigningKey(), ...keys.signing].slice(0, 2) };
  write(file, rotated);
  return rotated;
}

/** Distributed mode: SIGNING_KEYS is a JWKS of private keys, newest first; COOKIE_KEYS is required with it. */
export function keysFromConfig(signingKeys: string, cookieKeys: string | undefined, gateway: JWK[]): KeyMaterial {
  let parsed: { keys?: JWK[] };
  try {
    parsed = JSON.parse(signingKeys);
  } catch {
    throw new ConfigError('Invalid configuration: SIGNING_KEYS must be a JWKS JSON document');
  }
  if (!Array.isArray(parsed.keys) || parsed.keys.length === 0 || parsed.keys.some((k) => !k.d || !k.kid)) {
    throw new ConfigError('Invalid configuration: SIGNING_KEYS must hold private keys, each with a kid');
  }
  if (!cookieKeys) throw new ConfigError('Invalid configuration: COOKIE_KEYS is required with SIGNING_KEYS');
  return { signing: parsed.keys, gateway, cookies: cookieKeys.split(',').map((k) => k.trim()) };
}
