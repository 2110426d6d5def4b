import { conflict, forbidden, notFound, unprocessable, uuidv7 } from '@platform/kit';
import { can } from '../domain/permissions.ts';
import { isKnownRole } from '../domain/roles.ts';
import type { Grant, GrantInput } from '../schemas/grants.ts';
import { deleteGrant, findGrant, insertGrant } from '../store/grants.ts';
import { findPerson } from '../store/people.ts';
import type { Ctx } from './people.ts';

/** super_admin and verified grants are the keys to everything: only a verified Super Admin hands them out. */
const privileged = (g: { role: string; verified?: boolean }) => g.role === 'super_admin' || g.verified === true;

const grantEvent = (type: 'grant.added' | 'grant.removed', g: Grant) => ({
  type,
  data: { grant_id: g.id, principal_id: g.principal_id, role: g.role, scope_type: g.scope_type, scope_id: g.scope_id },
});

export async function addGrant(ctx: Ctx, fid: string, input: GrantInput) {
  if (!(await findPerson(ctx.trx, fid))) throw notFound('Person');
  if (!isKnownRole(input.role)) throw unprocessable('unknown_role', `No role named ${input.role}`, 'body/data/role');
  if ((input.scope_type === 'global') !== (input.scope_id === '*')) {
    throw unprocessable(
      'invalid_scope',
      'A global grant has scope_id "*"; a building grant names its building',
      'body/data/scope_id',
    );
  }
  if (input.role === 'super_admin' && input.scope_type !== 'global') {
    throw unprocessable('invalid_scope', 'super_admin is granted globally or not at all', 'body/data/scope_type');
  }
  if (privileged(input) && !can(ctx.principal, 'grants.manage_privileged')) {
    throw forbidden('Only a verified Super Admin may grant super_admin or verified grants');
  }
  const grant = await insertGrant(ctx.trx, uuidv7(ctx.now.getTime()), fid, input, ctx.principal.id, ctx.now);
  if (!grant) throw conflict('grant_exists', 'The person already holds this role at this scope');
  await ctx.emit(grantEvent('grant.added', grant));
  return grant;
}

export async function removeGrant(ctx: Ctx, fid: string, grantId: string) {
  const existing = await findGrant(ctx.trx, fid, grantId);
  if (!existing) throw notFound('Grant');
  if (privileged(existing) && !can(ctx.principal, 'grants.manage_privileged')) {
    throw forbidden('Only a verified Super Admin may remove super_admin or verified grants');
  }
  const removed = await deleteGrant(ctx.trx, fid, grantId);
  if (!removed) throw notFound('Grant');
  await ctx.emit(grantEvent('grant.removed', removed));
  return removed;
}
