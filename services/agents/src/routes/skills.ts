import { AppError, Command, Envelope, PageEnvelope, pageMeta, pageRequest, uuidv7 } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { SkillDocuments } from '../clients/documents.ts';
import {
  type Archive,
  addVersion,
  checkSource,
  createSkill,
  editableSkill,
  editSkill,
  ownerOf,
  skillNotFound,
  skillView,
  versionView,
  viewOf,
} from '../commands/skills.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import {
  ResolvedSkill,
  SKILL_PAGE,
  Skill,
  SkillBody,
  SkillBodyQuery,
  SkillEdit,
  SkillIdParams,
  SkillInput,
  SkillListQuery,
  SkillVersionInput,
  UploadUrl,
  UploadUrlInput,
} from '../schemas/skills.ts';
import { agentFor } from '../store/access.ts';
import { findSkill, latestVersions, listSkills, versionsById, versionsOf, versionWithBody } from '../store/skills.ts';
import { type RouteDeps, type Routes, readCaller, route } from './deps.ts';

const tags = ['skills'];

/** 503 skills_storage_unavailable when AGENTS_DOCUMENTS_URL is unset, before the documents service is asked. */
function documentsOf(deps: RouteDeps): SkillDocuments {
  if (!deps.documents) {
    throw new AppError(
      503,
      'skills_storage_unavailable',
      'AGENTS_DOCUMENTS_URL is not set: skill archives cannot be kept',
    );
  }
  return deps.documents;
}

const OUTSIDE = ['skills_storage_unavailable', 'documents_unavailable', 'archive_refused'] as const;

/** What a new request resolved before its transaction (the new skill's id, the archive in documents). */
const prepared = new WeakMap<FastifyRequest, { skillId: string; archive: Archive | null }>();

const idempotencyKey = (req: FastifyRequest) => {
  const v = req.headers['idempotency-key'];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/**
 * Resolves a version's archive in documents: a document_id must exist there; a blob_name is
 * registered as a document referring to the skill (the request's key makes a retry one document).
 */
async function resolveArchive(
  deps: RouteDeps,
  req: FastifyRequest,
  skillId: string,
  s: { document_id?: string; blob_name?: string; filename?: string },
): Promise<Archive | null> {
  if (s.document_id !== undefined) {
    const doc = await documentsOf(deps).find(s.document_id);
    return { source: 'document', document_id: s.document_id, blob_name: doc.blob_name };
  }
  if (s.blob_name !== undefined) {
    const documentId = await documentsOf(deps).register(
      { blob_name: s.blob_name, filename: s.filename ?? s.blob_name, skill_id: skillId },
      idempotencyKey(req),
    );
    return { source: 'blob', document_id: documentId, blob_name: s.blob_name };
  }
  return null;
}

const needsDocuments = (s: { document_id?: string; blob_name?: string }) =>
  s.document_id !== undefined || s.blob_name !== undefined;

export const SKILL_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/skills/upload-url',
    action: 'ManageAgents',
    command: false,
    tags,
    summary: 'A write link (documents SAS) for a skill archive; not a command: no Idempotency-Key, nothing written',
    description:
      'PUT the archive to upload_url with upload_headers, then send its blob_name to POST /v1/skills or POST ' +
      '/v1/skills/{id}/versions. 503 skills_storage_unavailable (AGENTS_DOCUMENTS_URL unset); 502 ' +
      'documents_unavailable (documents failed or did not answer in time); 422 archive_refused (documents refused ' +
      'the filename, e.g. no extension).',
    body: Command(UploadUrlInput),
    response: Envelope(UploadUrl),
    status: 201,
    errors: [...OUTSIDE],
    handler: async ({ body, reply }, deps) => {
      const link = await documentsOf(deps).uploadLink(body.data.filename);
      return reply.code(201).send(reply.envelope({ ...link, upload_headers: { 'x-ms-blob-type': 'BlockBlob' } }));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/skills',
    action: 'ReadAgents',
    tags,
    summary: 'Skills, newest first; q matches name, description, category or owner (FID or email); page mode',
    description: 'Every staff caller reads every skill: the catalog is shared, as its audit rows are.',
    query: SkillListQuery,
    response: PageEnvelope(Skill),
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const page = pageRequest(input.query, SKILL_PAGE.pageSize);
      const { items, total } = await listSkills(deps.database.db, input.query.q, page);
      const versions = await versionsOf(
        deps.database.db,
        items.map((s) => s.id),
      );
      const views = items.map((s) => viewOf(caller, s, versions.filter((v) => v.skill_id === s.id).map(versionView)));
      return input.reply.envelope(views, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/skills',
    action: 'ManageAgents',
    tags,
    summary:
      'Create a skill with its first version: markdown (kept as SKILL.md), or an archive by document_id or blob_name',
    description:
      'The caller owns the skill (with the service token and X-Platform-Agent-Id, that agent’s owner; the token ' +
      'alone is 403 not_skill_owner); the owner and platform admins change it. markdown alone is the SKILL.md; ' +
      'with document_id (a document in documents) or blob_name (uploaded to the link of POST /v1/skills/upload-url, ' +
      'registered in documents before the transaction) it is the archive’s SKILL.md. Neither markdown nor an ' +
      'archive, or both document_id and blob_name: 422 validation_failed. An archive needs AGENTS_DOCUMENTS_URL ' +
      '(503 skills_storage_unavailable); documents refusing it is 422 archive_refused. Publishes skill.created.',
    body: Command(SkillInput),
    response: Envelope(Skill),
    status: 201,
    errors: [...OUTSIDE, 'not_skill_owner'],
    check: async (input, deps) => {
      checkSource(input.body.data);
      if (needsDocuments(input.body.data)) documentsOf(deps);
    },
    options: (input, deps) => ({
      beforeTransaction: async () => {
        if (!needsDocuments(input.body.data)) return;
        // No document is registered for a caller who could not own the skill.
        ownerOf(await readCaller(deps, input));
        const skillId = uuidv7(deps.clock().getTime());
        prepared.set(input.req, { skillId, archive: await resolveArchive(deps, input.req, skillId, input.body.data) });
      },
    }),
    run: (ctx, { body, req }) => {
      const ready = prepared.get(req) ?? { skillId: uuidv7(ctx.now.getTime()), archive: null };
      return createSkill(ctx, body.data, ready.skillId, ready.archive);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/skills/:id',
    action: 'ReadAgents',
    tags,
    summary: 'One skill with its versions, newest first (without their markdown: see /body)',
    params: SkillIdParams,
    response: Envelope(Skill),
    errors: ['skill_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const skill = await findSkill(deps.database.db, input.params.id);
      if (!skill) throw skillNotFound();
      return input.reply.envelope(await skillView(deps.database.db, caller, skill));
    },
  }),

  route({
    method: 'PUT',
    url: '/v1/skills/:id',
    action: 'ManageAgents',
    tags,
    summary: 'Edit a skill’s name, description and category; a field not sent is kept',
    description:
      'The owner or a platform admin (403 not_skill_owner). A save changing nothing answers the skill without an ' +
      'event. Publishes skill.updated with the names of the changed fields.',
    params: SkillIdParams,
    body: Command(SkillEdit),
    response: Envelope(Skill),
    errors: ['skill_not_found', 'not_skill_owner'],
    run: (ctx, { params, body }) => editSkill(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/skills/:id/body',
    action: 'ReadAgents',
    tags,
    summary:
      'A version’s SKILL.md: the latest, or version_id’s; a version without one answers empty markdown and a note',
    params: SkillIdParams,
    query: SkillBodyQuery,
    response: Envelope(SkillBody),
    errors: ['skill_not_found', 'skill_version_not_found'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const skill = await findSkill(db, input.params.id);
      if (!skill) throw skillNotFound();
      const v = await versionWithBody(db, skill.id, input.query.version_id);
      if (!v) {
        throw new AppError(404, 'skill_version_not_found', 'No such version of this skill');
      }
      return input.reply.envelope({
        skill_id: skill.id,
        version_id: v.id,
        number: v.number,
        markdown: v.markdown ?? '',
        note:
          v.markdown === null
            ? 'This version’s archive was added without its SKILL.md: there is no SKILL.md to show'
            : null,
      });
    },
  }),

  route({
    method: 'POST',
    url: '/v1/skills/:id/versions',
    action: 'ManageAgents',
    tags,
    summary: 'Add a version (another archive, or markdown); agents holding the skill with a null version_id now use it',
    description:
      'The owner or a platform admin (403 not_skill_owner, checked before documents is asked). Same sources and ' +
      'refusals as POST /v1/skills. Publishes skill.versioned.',
    params: SkillIdParams,
    body: Command(SkillVersionInput),
    response: Envelope(Skill),
    status: 201,
    errors: [...OUTSIDE, 'skill_not_found', 'not_skill_owner'],
    check: async (input, deps) => {
      checkSource(input.body.data);
      if (needsDocuments(input.body.data)) documentsOf(deps);
    },
    options: (input, deps) => ({
      beforeTransaction: async () => {
        if (!needsDocuments(input.body.data)) return;
        const caller = await readCaller(deps, input);
        await editableSkill(deps.database.db, caller, input.params.id);
        prepared.set(input.req, {
          skillId: input.params.id,
          archive: await resolveArchive(deps, input.req, input.params.id, input.body.data),
        });
      },
    }),
    run: (ctx, { params, body, req }) => addVersion(ctx, params.id, body.data, prepared.get(req)?.archive ?? null),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/skills',
    action: 'ReadAgents',
    tags,
    summary: 'An agent’s skills as they resolve now: a null version_id follows the skill’s latest version',
    description:
      'Viewers and above (404 agent_not_found without access). pinned false: the agent holds the skill with a ' +
      'null version_id, and version_id here is the latest version at this read. A skill or version that no longer ' +
      'exists answers null version_id, number and name.',
    params: AgentIdParams,
    response: Envelope(Type.Array(ResolvedSkill)),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const caller = await readCaller(deps, input);
      const { agent } = await agentFor(db, caller, input.params.id, 'viewer');
      const held = (typeof agent.skills === 'string' ? JSON.parse(agent.skills) : agent.skills) as {
        skill_id: string;
        version_id?: string | null;
      }[];
      const latest = await latestVersions(
        db,
        held.filter((s) => !s.version_id).map((s) => s.skill_id),
      );
      const pinned = await versionsById(
        db,
        held.flatMap((s) => (s.version_id ? [s.version_id] : [])),
      );
      return input.reply.envelope(
        held.map((s) => {
          if (s.version_id) {
            const v = pinned.get(s.version_id);
            const ok = v !== undefined && v.skill_id === s.skill_id;
            return {
              skill_id: s.skill_id,
              version_id: ok ? s.version_id : null,
              number: ok ? v.number : null,
              name: ok ? v.name : null,
              pinned: true,
            };
          }
          const v = latest.get(s.skill_id);
          return {
            skill_id: s.skill_id,
            version_id: v?.id ?? null,
            number: v?.number ?? null,
            name: v?.name ?? null,
            pinned: false,
          };
        }),
      );
    },
  }),
];
