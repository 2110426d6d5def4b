import { type ActionOf, createCan, type Principal } from '@platform/kit';
import { workspace } from '@platform/policies';

/**
 * Workspace actions: the data in packages/policies/src/workspace.ts, read by the kit. What a person
 * may do on a project follows project roles (domain/roles.ts).
 */
export const can = createCan(workspace);
export type Action = ActionOf<typeof workspace>;

/** A platform admin, unless X-Platform-As-Member: true limits them to their memberships (it never grants admin). */
export const actsAsAdmin = (p: Principal, asMember: boolean) => !asMember && can(p, 'read_all_projects');

/** Why an owner membership does not count as owner for this caller (workspace.act_as_owner), or undefined when it does. */
export const ownerRefusal = (p: Principal): string | undefined => {
  const d = can.decide(p, 'act_as_owner');
  return d.allowed ? undefined : (d.message ?? 'Not permitted');
};
