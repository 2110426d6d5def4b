import { Type } from '@sinclair/typebox';

/** The prefix of every scoped route (OPS-007): region and subscription, never dev or prod (OPS-008). */
export const P = '/v1/environments/:region/:subscription';

const Name = Type.String({ pattern: '^[a-z][a-z0-9-]{0,62}$' });

export const ScopeParams = Type.Object({ region: Name, subscription: Name });
