import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { Enum, Fid } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const SKILL_SOURCES = ['markdown', 'document', 'blob'] as const;
export const SKILL_PAGE = { pageSize: 50, maxPageSize: 200 };

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 2_000 });
const Category = Type.String({ maxLength: 100 });

/** Where a version comes from: markdown (kept as its SKILL.md), or an archive uploaded through documents. */
const source = {
  markdown: Type.Optional(
    Type.String({
      maxLength: 200_000,
      description:
        'SKILL.md. Alone: the version is this markdown. With document_id or blob_name: the archive’s SKILL.md, ' +
        'shown by GET /v1/skills/{id}/body',
    }),
  ),
  document_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'An archive already registered in documents' }),
  ),
  blob_name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 300,
      description: 'An archive uploaded to the link of POST /v1/skills/upload-url; it is registered in documents',
    }),
  ),
  filename: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'With blob_name: the archive’s file name in documents' }),
  ),
};

export const SkillInput = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    category: Type.Optional(Category),
    ...source,
  },
  { additionalProperties: false },
);
export type SkillInput = Static<typeof SkillInput>;

export const SkillVersionInput = Type.Object(source, { additionalProperties: false });
export type SkillVersionInput = Static<typeof SkillVersionInput>;

export const SkillEdit = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Description), category: Type.Optional(Category) },
  { additionalProperties: false },
);
export type SkillEdit = Static<typeof SkillEdit>;

export const SkillVersion = Type.Object({
  id: Uuid,
  number: Type.Integer({ description: '1 for the first version; the highest is the latest' }),
  source: Enum(SKILL_SOURCES),
  document_id: Nullable(Type.String()),
  blob_name: Nullable(Type.String()),
  has_skill_md: Type.Boolean({ description: 'Whether the service holds this version’s SKILL.md' }),
  created_by: Type.String(),
  created_at: Timestamp,
});

export const Skill = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  category: Type.String(),
  owner_fid: Fid,
  owner_email: Nullable(Type.String()),
  created_by: Type.String({ description: "The creator's FID, or agent:<id> when an agent created it" }),
  latest_version_id: Uuid,
  version_count: Type.Integer(),
  versions: Type.Array(SkillVersion, { description: 'Newest first' }),
  caller_may_edit: Type.Boolean({ description: 'The owner, or a platform admin acting as admin' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Skill = Static<typeof Skill>;

export const SkillBody = Type.Object({
  skill_id: Uuid,
  version_id: Uuid,
  number: Type.Integer(),
  markdown: Type.String({ description: 'SKILL.md; empty when the version has none' }),
  note: Nullable(Type.String({ description: 'Why markdown is empty, when it is' })),
});

export const SkillListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Matches name, description, category or owner' }),
    ),
    ...pageQuery(SKILL_PAGE),
  },
  { additionalProperties: false },
);

export const SkillIdParams = Type.Object({ id: Uuid });
export const SkillBodyQuery = Type.Object({ version_id: Type.Optional(Uuid) }, { additionalProperties: false });

export const UploadUrlInput = Type.Object(
  {
    filename: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The archive’s file name, with its extension (e.g. my-skill.zip)',
    }),
  },
  { additionalProperties: false },
);
export const UploadUrl = Type.Object({
  blob_name: Type.String({ description: 'Send it as blob_name to POST /v1/skills or /v1/skills/{id}/versions' }),
  upload_url: Type.String({ description: 'PUT the archive here, with upload_headers' }),
  expires_at: Timestamp,
  upload_headers: Type.Record(Type.String(), Type.String()),
});

/** An agent's skills as they resolve now (AGT-043). */
export const ResolvedSkill = Type.Object({
  skill_id: Uuid,
  version_id: Nullable(Uuid),
  number: Nullable(Type.Integer()),
  name: Nullable(Type.String()),
  pinned: Type.Boolean({ description: 'true: the agent names this version; false: it follows the latest' }),
});
