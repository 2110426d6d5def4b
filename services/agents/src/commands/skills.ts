import { forbidden, notFound, unprocessable, uuidv7 } from '@platform/kit';
import type { Caller } from '../domain/access.ts';
import type { SkillEdit, SkillInput, SkillVersionInput } from '../schemas/skills.ts';
import { resolveCaller } from '../store/access.ts';
import type { Db } from '../store/db.ts';
import {
  findSkill,
  insertSkill,
  insertVersion,
  latestNumber,
  lockSkill,
  type SkillRow,
  updateSkill,
  versionsOf,
} from '../store/skills.ts';
import { actorOf } from './agents.ts';
import type { CommandCtx } from './context.ts';

export const skillNotFound = () => notFound('Skill', 'skill_not_found');

/** Where a version's archive is, once documents has it (resolved before the transaction). */
export interface Archive {
  source: 'document' | 'blob';
  document_id: string;
  blob_name: string;
}

/** A version's source sent: markdown, document_id or blob_name (one archive at most); else 422 validation_failed. */
export function checkSource(s: SkillVersionInput) {
  if (s.document_id !== undefined && s.blob_name !== undefined) {
    throw unprocessable('validation_failed', 'Send document_id or blob_name, not both', 'data/blob_name');
  }
  if (s.markdown === undefined && s.document_id === undefined && s.blob_name === undefined) {
    throw unprocessable('validation_failed', 'A version needs markdown, a document_id or a blob_name', 'data/markdown');
  }
}

/** A person must own a skill: with the service token alone there is none (403 not_skill_owner). */
export function ownerOf(caller: Caller): string {
  if (caller.fid === null) {
    throw forbidden('The service token creates a skill only for an agent (X-Platform-Agent-Id)', 'not_skill_owner');
  }
  return caller.fid;
}

/** Whether the caller may change the skill: its owner, or a platform admin acting as admin. */
export const mayEdit = (caller: Caller, skill: Pick<SkillRow, 'owner_fid'>) =>
  caller.admin || (caller.fid !== null && caller.fid === skill.owner_fid);

/** The skill the caller changes: 404 skill_not_found, 403 not_skill_owner. */
export async function editableSkill(db: Db, caller: Caller, id: string, lock = false): Promise<SkillRow> {
  const skill = lock ? await lockSkill(db, id) : await findSkill(db, id);
  if (!skill) throw skillNotFound();
  if (!mayEdit(caller, skill)) {
    throw forbidden('Only the skill’s owner or a platform admin changes a skill', 'not_skill_owner');
  }
  return skill;
}

/** The skill as answered: its versions newest first, without markdown. */
export async function skillView(db: Db, caller: Caller, skill: SkillRow) {
  const versions = (await versionsOf(db, [skill.id])).map(versionView);
  return viewOf(caller, skill, versions);
}

export const versionView = (v: Awaited<ReturnType<typeof versionsOf>>[number]) => ({
  id: v.id,
  number: v.number,
  source: v.source as 'markdown' | 'document' | 'blob',
  document_id: v.document_id,
  blob_name: v.blob_name,
  has_skill_md: Boolean(v.has_skill_md),
  created_by: v.created_by,
  created_at: v.created_at.toISOString(),
});

export const viewOf = (caller: Caller, skill: SkillRow, versions: ReturnType<typeof versionView>[]) => ({
  id: skill.id,
  name: skill.name,
  description: skill.description,
  category: skill.category,
  owner_fid: skill.owner_fid,
  owner_email: skill.owner_email,
  created_by: skill.created_by,
  latest_version_id: versions[0]?.id ?? '',
  version_count: versions.length,
  versions,
  caller_may_edit: mayEdit(caller, skill),
  created_at: skill.created_at.toISOString(),
  updated_at: skill.updated_at.toISOString(),
});

const versionRow = (
  ctx: CommandCtx,
  skillId: string,
  number: number,
  input: SkillVersionInput,
  archive: Archive | null,
  createdBy: string,
) => ({
  id: uuidv7(ctx.now.getTime()),
  skill_id: skillId,
  number,
  source: archive?.source ?? 'markdown',
  markdown: input.markdown ?? null,
  document_id: archive?.document_id ?? null,
  blob_name: archive?.blob_name ?? null,
  created_by: createdBy,
  created_at: ctx.now,
});

/**
 * POST /v1/skills: the skill with its first version (AGT-238..241). The caller owns it; with the
 * service token and X-Platform-Agent-Id, that agent's owner does. Publishes skill.created.
 */
export async function createSkill(ctx: CommandCtx, input: SkillInput, skillId: string, archive: Archive | null) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const owner = ownerOf(caller);
  const actor = actorOf(caller);
  await insertSkill(ctx.trx, {
    id: skillId,
    name: input.name,
    description: input.description ?? '',
    category: input.category ?? '',
    owner_fid: owner,
    owner_email: caller.agentId === null ? (ctx.principal.email ?? null) : null,
    created_by: actor,
    created_at: ctx.now,
    updated_at: ctx.now,
  });
  const version = versionRow(ctx, skillId, 1, input, archive, actor);
  await insertVersion(ctx.trx, version);
  await ctx.emit({
    type: 'skill.created',
    data: {
      skill_id: skillId,
      version_id: version.id,
      number: 1,
      source: version.source,
      owner_fid: owner,
      actor_fid: actor,
    },
  });
  const created = await findSkill(ctx.trx, skillId);
  if (!created) throw skillNotFound();
  return skillView(ctx.trx, caller, created);
}

/** POST /v1/skills/{id}/versions: the next version (AGT-247); agents following the latest now use it (AGT-043). */
export async function addVersion(ctx: CommandCtx, id: string, input: SkillVersionInput, archive: Archive | null) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const skill = await editableSkill(ctx.trx, caller, id, true);
  const actor = actorOf(caller);
  const number = (await latestNumber(ctx.trx, id)) + 1;
  const version = versionRow(ctx, id, number, input, archive, actor);
  await insertVersion(ctx.trx, version);
  await updateSkill(ctx.trx, id, {}, ctx.now);
  await ctx.emit({
    type: 'skill.versioned',
    data: { skill_id: id, version_id: version.id, number, source: version.source, actor_fid: actor },
  });
  const updated = (await findSkill(ctx.trx, id)) ?? skill;
  return skillView(ctx.trx, caller, updated);
}

/** PUT /v1/skills/{id}: name, description and category; a field not sent is kept (AGT-243). */
export async function editSkill(ctx: CommandCtx, id: string, input: SkillEdit) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const skill = await editableSkill(ctx.trx, caller, id, true);
  const set: Partial<Pick<SkillRow, 'name' | 'description' | 'category'>> = {};
  for (const k of ['name', 'description', 'category'] as const) {
    const v = input[k];
    if (v !== undefined && v !== skill[k]) set[k] = v;
  }
  const fields = Object.keys(set);
  if (fields.length === 0) return skillView(ctx.trx, caller, skill);
  await updateSkill(ctx.trx, id, set, ctx.now);
  await ctx.emit({ type: 'skill.updated', data: { skill_id: id, fields, actor_fid: actorOf(caller) } });
  const updated = (await findSkill(ctx.trx, id)) ?? skill;
  return skillView(ctx.trx, caller, updated);
}
