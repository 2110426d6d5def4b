import { type Policy, type Rule, type ScopeType, SUPER_ADMIN } from '@platform/policies';

export type { ActionOf, GatewayApp, Policy, Rule, ScopeType } from '@platform/policies';

export interface Grant {
  role: string;
  scope_type: ScopeType;
  /** The literal `*` for global grants. */
  scope_id: string;
  /** A grant the identity service verified (e.g. a global Super Admin); a label alone is not. */
  verified?: boolean;
}

/**
 * One principal type for every service. Tokens carry no roles: grants come from the identity
 * service (or, locally, the dev principals file).
 */
export interface Principal {
  /** A person's FID (UUID), or `service:<name>` for a platform service. */
  id: string;
  kind: 'person' | 'service';
  email?: string;
  grants: Grant[];
  /**
   * Set when a platform service acts for this person with the shared service token: the person
   * is named by the service, not proven, so some services let such calls read but never change.
   * `bearer`: identity's platform access token, which signs in for no gateway application.
   */
  via?: 'service_token' | 'gateway' | 'credential' | 'bearer';
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

const grantCovers = (g: Grant, scope?: Scope) =>
  g.scope_type === 'global' || (scope !== undefined && g.scope_type === scope.type && g.scope_id === scope.id);

export const hasRole = (p: Principal, roles: readonly string[], scope?: Scope) =>
  p.grants.some((g) => roles.includes(g.role) && grantCovers(g, scope));

/** A verified global grant of `role`: a role label, or a grant scoped narrower, is not enough. */
export const hasVerifiedGlobal = (p: Principal, role: string) =>
  p.kind === 'person' && p.grants.some((g) => g.role === role && g.scope_type === 'global' && g.verified === true);

/**
 * The per-deployment facts a policy names but cannot hold: each access-gateway application's
 * audience and each email list, read from the configuration variables the policy names
 * (`policyConfig`, `policyInputs`).
 */
export interface PolicyInputs {
  /** Audience of each application of the policy's `apps`; unset, no token of it is accepted. */
  apps?: Readonly<Record<string, string | undefined>>;
  /** Each list of the policy's `lists`, lower-case emails. */
  lists?: Readonly<Record<string, readonly string[]>>;
}

export type Decision =
  | { allowed: true }
  | { allowed: false; refusal: 'unauthenticated' | 'forbidden'; message?: string };

export type Decide<A extends string> = (p: Principal | null, action: A, scope?: Scope) => Decision;

/** `can(principal, action, scope)`, and `can.decide` for why not (401 or 403, and what to say). */
export type Can<A extends string> = ((p: Principal, action: A, scope?: Scope) => boolean) & { decide: Decide<A> };

const ALLOWED: Decision = { allowed: true };
const NOT_VIA_SERVICE_TOKEN = 'This action is never taken through the shared service token';

const admits = (rule: Rule, p: Principal, inputs: PolicyInputs, scope?: Scope): boolean => {
  if (p.kind === 'service') return rule.anyService === true || (rule.services?.includes(p.id) ?? false);
  if (rule.anyPerson) return true;
  if (rule.listed !== undefined && p.email !== undefined) {
    if ((inputs.lists?.[rule.listed] ?? []).includes(p.email.toLowerCase())) return true;
  }
  return hasRole(p, rule.roles ?? [], rule.scope === 'global' ? undefined : scope);
};

/**
 * The one interpreter of policies (packages/policies): every rule field, the policy's Super Admin
 * exception and its inputs. Order: an open action; no principal (401); a gateway token of an
 * application the action does not accept, or the platform access token where the policy does not
 * count it as one the action accepts (401); the service token where it is refused (403); a
 * verified global Super Admin where the policy says 'all'; then who the rule admits (else 403).
 */
export function createDecide<A extends string>(policy: Policy<A>, inputs: PolicyInputs = {}): Decide<A> {
  return (p, action, scope) => {
    const rule: Rule | undefined = policy.actions[action];
    if (!rule) return { allowed: false, refusal: 'forbidden' };
    if (rule.anyone) return ALLOWED;
    if (!p) return { allowed: false, refusal: 'unauthenticated' };
    if (rule.apps && p.via === 'gateway') {
      const accepted = rule.apps.some((a) => inputs.apps?.[a] !== undefined && inputs.apps[a] === p.app);
      if (!accepted) {
        const own = Object.entries(policy.apps ?? {}).find(([a]) => inputs.apps?.[a] === p.app)?.[1];
        return { allowed: false, refusal: 'unauthenticated', message: own?.elsewhere };
      }
    }
    if (rule.apps && p.via === 'bearer') {
      // The platform access token is valid at every service (SIGN-064) but signs in for no
      // application: it counts as the one the policy names, or as none (issue 14.2).
      const as = policy.platformToken;
      if (!as || !rule.apps.includes(as.app))
        return { allowed: false, refusal: 'unauthenticated', message: as?.elsewhere };
    }
    if (rule.notViaServiceToken && p.via === 'service_token') {
      return { allowed: false, refusal: 'forbidden', message: rule.refusal ?? NOT_VIA_SERVICE_TOKEN };
    }
    if (policy.superAdmin === 'all' && hasVerifiedGlobal(p, SUPER_ADMIN)) return ALLOWED;
    return admits(rule, p, inputs, scope) ? ALLOWED : { allowed: false, refusal: 'forbidden', message: rule.refusal };
  };
}

/** `can(principal, action, scope)`: the one question routes ask; they never compare role strings. */
export function createCan<A extends string>(policy: Policy<A>, inputs: PolicyInputs = {}): Can<A> {
  const decide = createDecide(policy, inputs);
  return Object.assign((p: Principal, action: A, scope?: Scope) => decide(p, action, scope).allowed, { decide });
}
