import { conflict, notFound } from '@platform/kit';
import { DEFAULT_JOIN_ROLE, keepAnOwner, memberChange } from '../domain/members.ts';
import { projectNotFound, type Role } from '../domain/roles.ts';
import type { WorkspaceEvent } from '../events.ts';
import type {
  DecisionInput,
  JoinRequest,
  JoinRequestInput,
  Member,
  MemberChangeInput,
  MemberInput,
} from '../schemas/members.ts';
import {
  countOwners,
  decideJoinRequest,
  deleteMember,
  findJoinRequest,
  findMember,
  insertMember,
  openJoinRequest,
  setMemberRole,
} from '../store/members.ts';
import { lockProject } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Membership (spec 2, Projects: members and join requests). Owners add, change and remove
 * members and decide join requests; a project always keeps an owner. Events carry ids and roles
 * only. Membership writes are not task, goal, view or settings writes, so they take no change
 * number.
 */

const alreadyMember = () => conflict('already_member', 'This principal is already a member of the project');

const memberAdded = (projectId: string, principalId: string, role: Role, actor: string): WorkspaceEvent => ({
  type: 'project.member_added',
  data: { projectId, principalId, role, actor },
});

/**
 * An owner adds (invites) a principal with a role: 201 with the membership. Someone already a
 * member is 409 already_member (their role changes through POST .../members/{principal_id}). A
 * pending join request of theirs is settled as approved.
 */
export async function addMember(ctx: CommandCtx, projectId: string, input: MemberInput): Promise<Member> {
  const { trx, principal, now } = ctx;
  await projectForWrite(ctx, projectId, 'owner');
  if (await findMember(trx, projectId, input.principal_id)) throw alreadyMember();
  const member = await insertMember(trx, projectId, input.principal_id, input.role, principal.id, now);
  const events = [memberAdded(projectId, member.principal_id, member.role, principal.id)];
  const pending = await findJoinRequest(trx, projectId, input.principal_id, { lock: true });
  if (pending?.status === 'pending') {
    await decideJoinRequest(
      trx,
      projectId,
      input.principal_id,
      { status: 'approved', role: input.role, by: principal.id },
      now,
    );
    events.push(joinDecided(projectId, input.principal_id, 'approve', input.role, principal.id));
  }
  await ctx.emit(events);
  return member;
}

/**
 * Changes a member's role ({role}) or removes them ({remove: true}); owners only, except that
 * any member may remove themselves (leave). The only owner can be neither demoted nor removed
 * (422 last_owner). Setting the role a member already has changes nothing and emits nothing.
 */
export async function changeMember(
  ctx: CommandCtx,
  projectId: string,
  principalId: string,
  input: MemberChangeInput,
): Promise<{ principal_id: string; removed: boolean; member: Member | null }> {
  const { trx, principal, now } = ctx;
  const change = memberChange(input);
  const leaving = 'remove' in change && principalId === principal.id;
  await projectForWrite(ctx, projectId, leaving ? 'viewer' : 'owner');
  const current = await findMember(trx, projectId, principalId);
  if (!current) throw notFound('Member', 'member_not_found');
  if ('role' in change && change.role === current.role) {
    return { principal_id: principalId, removed: false, member: current };
  }
  keepAnOwner(current.role, change, current.role === 'owner' ? await countOwners(trx, projectId) : 0);
  if ('remove' in change) {
    await deleteMember(trx, projectId, principalId);
    await ctx.emit({
      type: 'project.member_removed',
      data: { projectId, principalId, role: current.role, actor: principal.id },
    });
    return { principal_id: principalId, removed: true, member: null };
  }
  const member = await setMemberRole(trx, projectId, principalId, change.role, now);
  await ctx.emit({
    type: 'project.member_role_changed',
    data: { projectId, principalId, fromRole: current.role, toRole: change.role, actor: principal.id },
  });
  return { principal_id: principalId, removed: false, member };
}

const joinDecided = (
  projectId: string,
  principalId: string,
  decision: 'approve' | 'decline',
  role: Role | null,
  actor: string,
): WorkspaceEvent => ({
  type: 'project.join_request_decided',
  data: { projectId, principalId, decision, role, actor },
});

/**
 * A signed-in person who is not a member asks to join a project they know from the gallery. They
 * cannot see the project, so this does not 404 for want of a membership; it does 404 for a
 * project the gallery does not show (unknown or archived). A member is 409 already_member. A
 * request already pending is answered as it is (no new event); a decided one is reopened.
 */
export async function requestToJoin(ctx: CommandCtx, projectId: string, input: JoinRequestInput): Promise<JoinRequest> {
  const { trx, principal, now } = ctx;
  const project = await lockProject(trx, projectId);
  if (!project) throw projectNotFound();
  if (await findMember(trx, projectId, principal.id)) throw alreadyMember();
  if (project.status === 'archived') throw projectNotFound();
  const existing = await findJoinRequest(trx, projectId, principal.id, { lock: true });
  if (existing?.status === 'pending') return existing;
  const request = await openJoinRequest(trx, projectId, principal.id, input.message ?? '', now);
  await ctx.emit({
    type: 'project.join_requested',
    data: { projectId, principalId: principal.id, actor: principal.id },
  });
  return request;
}

/**
 * An owner approves (with a role, viewer by default) or declines a pending request. Approval
 * makes the requester a member. No request is 404 join_request_not_found; a request already
 * decided is 409 join_request_decided.
 */
export async function decideJoin(
  ctx: CommandCtx,
  projectId: string,
  principalId: string,
  input: DecisionInput,
): Promise<JoinRequest> {
  const { trx, principal, now } = ctx;
  await projectForWrite(ctx, projectId, 'owner');
  const request = await findJoinRequest(trx, projectId, principalId, { lock: true });
  if (!request) throw notFound('Join request', 'join_request_not_found');
  if (request.status !== 'pending') {
    throw conflict('join_request_decided', `This join request was already ${request.status}`);
  }
  const approve = input.decision === 'approve';
  const role = approve ? (input.role ?? DEFAULT_JOIN_ROLE) : null;
  const decided = await decideJoinRequest(
    trx,
    projectId,
    principalId,
    { status: approve ? 'approved' : 'declined', role, by: principal.id },
    now,
  );
  const events = [joinDecided(projectId, principalId, input.decision, role, principal.id)];
  if (role && !(await findMember(trx, projectId, principalId))) {
    await insertMember(trx, projectId, principalId, role, principal.id, now);
    events.push(memberAdded(projectId, principalId, role, principal.id));
  }
  await ctx.emit(events);
  return decided;
}
