/**
 * One principal type for every service. Tokens carry no roles: grants come from the identity
 * service (or, locally, the dev principals file).
 */
export type ScopeType = 'global' | 'building' | 'legal_entity';

export interface Grant {
  role: string;
  scope_type: ScopeType;
  /** The literal `*` for global grants. */
  scope_id: string;
  /** A grant the identity service verified (e.g. a global Super Admin); a label alone is not. */
  verified?: boolean;
}

export interface Principal {
  /** A person's FID (UUID), or `service:<name>` for a platform service. */
  id: string;
  kind: 'person' | 'service';
  email?: string;
  grants: Grant[];
  /**
   * Set when a platform service acts for this person with the shared service token: the person
   * is named by the service, not proven, so some services let such calls read but never change.
   */
  via?: 'service_token' | 'gateway' | 'credential';
  /** For `via: 'gateway'`: the application audience the access gateway signed the caller in for. */
  app?: string;
  /**
   * For `via: 'credential'`: the caller presented a token minted from an API credential (the
   * model broker's personal and service credentials), with the credential's owner.
   */
  credential?: { client_id: string; kind: 'personal' | 'service'; owner_email: string };
}

export interface Scope {
  type: ScopeType;
  id: string;
}

/** Which roles or services an action is for. Services name principals, not roles. */
export interface Rule {
  roles?: readonly string[];
  services?: readonly string[];
  /** Any signed-in person, whatever their grants (staff). */
  anyPerson?: boolean;
  anyService?: boolean;
}
export type Policy<A extends string> = Record<A, Rule>;

const grantCovers = (g: Grant, scope?: Scope) =>
  g.scope_type === 'global' || (scope !== undefined && g.scope_type === scope.type && g.scope_id === scope.id);

export const hasRole = (p: Principal, roles: readonly string[], scope?: Scope) =>
  p.grants.some((g) => roles.includes(g.role) && grantCovers(g, scope));

/** A verified global grant of `role`: a role label, or a grant scoped narrower, is not enough. */
export const hasVerifiedGlobal = (p: Principal, role: string) =>
  p.kind === 'person' && p.grants.some((g) => g.role === role && g.scope_type === 'global' && g.verified === true);

/** `can(principal, action, scope)`: the one question routes ask; they never compare role strings. */
export function createCan<A extends string>(policy: Policy<A>) {
  return (p: Principal, action: A, scope?: Scope): boolean => {
    const rule = policy[action];
    if (!rule) return false;
    if (p.kind === 'service') return rule.anyService === true || (rule.services?.includes(p.id) ?? false);
    if (rule.anyPerson) return true;
    return hasRole(p, rule.roles ?? [], scope);
  };
}
