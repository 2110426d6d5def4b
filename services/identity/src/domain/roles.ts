import { type Can, createCan, type Grant, type PolicyInputs, type Principal, type Scope } from '@platform/kit';
import { POLICIES, ROLES } from '@platform/policies';

/**
 * The platform's role-to-action matrix: every service's policy (packages/policies) asked through
 * the kit's interpreter, the same `can` each service enforces with, so GET /v1/authz/me and
 * GET /v1/roles cannot drift from what the services answer. Actions are `<service>.<action>`.
 */
export interface Matrix {
  /** GET /v1/authz/me's `can`. */
  canEntries(p: Principal): CanEntry[];
  /** GET /v1/roles. */
  roleCatalog(): { role: string; description: string; actions: string[] }[];
}

type CanEntry = { scope_type: 'global' | 'building'; scope_id: string; actions: string[] };

export const isKnownRole = (role: string) => role in ROLES;

/** `inputs`: per service, what its policy names but cannot hold (vendors' editors list, gateway audiences). */
export function roleMatrix(inputs: Readonly<Record<string, PolicyInputs>> = {}): Matrix {
  const cans: [string, Can<string>][] = Object.entries(POLICIES).map(([service, policy]) => [
    service,
    createCan(policy, inputs[service]),
  ]);
  /** Every action the principal may take, asked in `scope` (none: what the services ask today). */
  const actionsOf = (p: Principal, scope?: Scope) =>
    cans.flatMap(([service, can]) =>
      Object.keys(POLICIES[service]?.actions ?? {})
        .filter((a) => can(p, a, scope))
        .map((a) => `${service}.${a}`),
    );
  /** What `grants` add, in `scope`, to what the principal holds without any grant. */
  const added = (p: Principal, grants: Grant[], scope?: Scope) => {
    const without = new Set(actionsOf({ ...p, grants: [] }, scope));
    return actionsOf({ ...p, grants }, scope).filter((a) => !without.has(a));
  };

  return {
    canEntries(p) {
      const entries: CanEntry[] = [{ scope_type: 'global', scope_id: '*', actions: actionsOf(p).sort() }];
      const buildings = [...new Set(p.grants.filter((g) => g.scope_type === 'building').map((g) => g.scope_id))];
      for (const id of buildings.sort((a, b) => a.localeCompare(b))) {
        const scope: Scope = { type: 'building', id };
        const inBuilding = p.grants.filter((g) => g.scope_type === 'building' && g.scope_id === id);
        const actions = added(p, inBuilding, scope).sort();
        if (actions.length) entries.push({ scope_type: 'building', scope_id: id, actions });
      }
      return entries.filter((e) => e.actions.length > 0);
    },
    roleCatalog() {
      const person: Principal = { id: 'role', kind: 'person', grants: [] };
      return Object.entries(ROLES).map(([role, description]) => ({
        role,
        description,
        // A global grant, verified: what the role can ever allow (a Super Admin's only so).
        actions: added(person, [{ role, scope_type: 'global', scope_id: '*', verified: true }]).sort(),
      }));
    },
  };
}
