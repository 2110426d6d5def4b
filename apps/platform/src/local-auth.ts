import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@platform/kit';

/** The application audiences the local access-gateway stand-in issues tokens for. */
export const LOCAL_GATEWAY_AUDIENCES = [
  'vendors-app',
  'vendors-portal',
  'construction-app',
  'broker-app',
  'agents-app',
  'console-app',
];

/** One shared service token per data folder, so services started later agree with identity. */
function serviceToken(dataDir: string): string {
  const file = join(dataDir, 'service-token');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const token = randomBytes(32).toString('base64url');
    writeFileSync(file, token, { mode: 0o600 });
    return token;
  }
}

/** The broker's credential-token signing key (EC P-256, PKCS#8 PEM), made once per data folder. */
function brokerSigningKey(dataDir: string): string {
  const file = join(dataDir, 'broker-signing-key.pem');
  try {
    return readFileSync(file, 'utf8');
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeFileSync(file, privateKey, { mode: 0o600 });
    return privateKey;
  }
}

/**
 * Embedded mode's authentication settings, each overridable from the environment: identity is the
 * issuer on the loopback IP (never localhost, SIGN-004), services read grants from it with one
 * shared service token, and identity stands in for the access gateway.
 */
export async function localAuthEnv(env: NodeJS.ProcessEnv, dataDir: string): Promise<NodeJS.ProcessEnv> {
  // PORT_IDENTITY=0 (tests) still needs a known port: the issuer string names it.
  const port = env.PORT_IDENTITY === '0' ? String(await freePort()) : env.PORT_IDENTITY || '4100';
  const issuer = env.AUTH_ISSUER || `http://127.0.0.1:${port}`;
  const token = env.SERVICE_TOKEN || serviceToken(dataDir);
  return {
    PORT_IDENTITY: port,
    AUTH_ISSUER: issuer,
    IDENTITY_URL: env.IDENTITY_URL || issuer,
    SERVICE_TOKEN: token,
    SEED_DEV_PRINCIPALS: env.SEED_DEV_PRINCIPALS || (env.DEV_AUTH === '1' ? '1' : '0'),
    GATEWAY_AUDIENCES: env.GATEWAY_AUDIENCES || LOCAL_GATEWAY_AUDIENCES.join(','),
    GATEWAY_JWKS_URL: env.GATEWAY_JWKS_URL || `${issuer}/gateway/certs`,
    GATEWAY_ISSUER: env.GATEWAY_ISSUER || `${issuer}/gateway`,
    // Vendors' caller table: the internal application and the portal at the gateway stand-in,
    // the platform's service token, and the dev admin as the one editor.
    VENDORS_ACCESS_AUD: env.VENDORS_ACCESS_AUD || 'vendors-app',
    VENDORS_PORTAL_ACCESS_AUD: env.VENDORS_PORTAL_ACCESS_AUD || 'vendors-portal',
    VENDORS_SERVICE_TOKEN: env.VENDORS_SERVICE_TOKEN || token,
    VENDORS_EDITORS: env.VENDORS_EDITORS ?? (env.DEV_AUTH === '1' ? 'admin@dev.local' : ''),
    // The broker: staff sessions at the gateway stand-in, and a signing key for credential tokens.
    BROKER_ACCESS_AUD: env.BROKER_ACCESS_AUD || 'broker-app',
    BROKER_SIGNING_KEY: env.BROKER_SIGNING_KEY || brokerSigningKey(dataDir),
    // The console's web UI signs in here (client console-web) and trades for a console-app token;
    // with dev headers on, the dev admin is the console's admin, as for vendors and construction.
    CONSOLE_WEB_SIGN_IN_URL: env.CONSOLE_WEB_SIGN_IN_URL || issuer,
    DEVOPS_ADMIN_EMAILS: env.DEVOPS_ADMIN_EMAILS ?? (env.DEV_AUTH === '1' ? 'admin@dev.local' : ''),
  };
}
