import type { Authenticator, Principal } from '@platform/kit';

/**
 * Authorization is not wired in documents (spec 1): every request runs as this placeholder
 * actor, whatever credentials it carries, and audit columns name it.
 */
export const SYSTEM_PRINCIPAL: Principal = Object.freeze({ id: 'system', kind: 'service', grants: [] }) as Principal;

export const systemAuthenticator: Authenticator = { authenticate: async () => SYSTEM_PRINCIPAL };
