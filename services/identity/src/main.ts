import { docsNote, runMain } from '@platform/kit';
import { ClientRegistrationError } from './clients/definition.ts';
import { identityConfig } from './config.ts';
import { startIdentity } from './start.ts';

await runMain('identity', () => startIdentity(identityConfig()), {
  isConfigError: (e) => e instanceof ClientRegistrationError,
  note: (s) => `issuer ${(s as { issuer?: string }).issuer}, ${docsNote(s)}`,
});
