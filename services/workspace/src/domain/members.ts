import { unprocessable } from '@platform/kit';
import type { Role } from './roles.ts';

/**
 * Membership rules: who may be a member (a person's FID or service:<name>), how a membership is
 * changed, and that a project always keeps an owner.
 */

/** A person's FID (a UUID, stored lower-cased) or a service's `service:<name>`. */
export const PRINCIPAL_ID_PATTERN =
  '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|service:[A-Za-z0-9][A-Za-z0-9._-]{0,99})$';

/** The role a join request is approved with when the decision names none. */
export const DEFAULT_JOIN_ROLE: Role = 'viewer';

export type MemberChange = { remove: true } | { role: Role };

/** A change names either a role or remove: true, never both and never neither. */
export function memberChange(input: { role?: Role; remove?: boolean }): MemberChange {
  const hasRole = input.role !== undefined;
  const remove = input.remove === true;
  if (hasRole === remove) {
    throw unprocessable('role_or_remove', 'Send either a role or remove: true', hasRole ? 'data/remove' : 'data/role');
  }
  return remove ? { remove: true } : { role: input.role as Role };
}

/**
 * Never leave a project without an owner: demoting or removing the only owner is 422 last_owner.
 * `owners` is the number of owners before the change.
 */
export function keepAnOwner(currentRole: Role, change: MemberChange, owners: number): void {
  const losesOwner = currentRole === 'owner' && ('remove' in change || change.role !== 'owner');
  if (losesOwner && owners <= 1) {
    throw unprocessable('last_owner', 'A project keeps at least one owner; make someone else owner first', 'data');
  }
}
