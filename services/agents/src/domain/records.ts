import { forbidden } from '@platform/kit';
import type { Caller } from './access.ts';

/**
 * A call made with the shared service token: the harness (with or without X-Platform-Agent-Id),
 * or a service acting for a person through it. Memories it writes are the agent's own (source
 * agent, tier archive: AGT-201); pinning, demoting, dropping and purging are refused to it (AGT-208).
 */
export const viaServiceToken = (c: Caller) =>
  c.service || c.agentId !== null || c.principal.kind === 'service' || c.principal.via === 'service_token';

export const serviceTokenRefused = () =>
  forbidden(
    'Pinning, demoting, dropping and purging memories is for a person with the editor role, not a shared service token',
    'service_token_not_allowed',
  );

/** The UUIDs a text names, lower case, each once, in order of appearance (AGT-224). */
export function uuidsIn(text: string): string[] {
  const found = text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? [];
  return [...new Set(found.map((u) => u.toLowerCase()))];
}
