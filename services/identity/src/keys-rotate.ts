import { identityConfig } from './config.ts';
import { rotateKeys } from './oauth/keys.ts';
import { keysFile } from './start.ts';

/** `npm run keys:rotate -w services/identity`: a new signing key; the previous one stays published. */
const config = identityConfig();
if (config.SIGNING_KEYS) {
  console.error('SIGNING_KEYS is set: rotate by putting a new key first in that JWKS and keeping the previous one.');
  process.exit(2);
}
const keys = await rotateKeys(keysFile(config));
console.log(
  `signing with ${keys.signing[0]?.kid}; still published: ${
    keys.signing
      .slice(1)
      .map((k) => k.kid)
      .join(', ') || 'none'
  }`,
);
console.log('Restart identity to use the new key.');
