import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { unprocessable } from './errors.ts';
import { UUID_RE } from './ids.ts';

/** A UUID in either case, without the `urn:uuid:` prefix that the `uuid` format would let through. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const Uuid = Type.String({ format: 'uuid', pattern: UUID_PATTERN });

export const Timestamp = Type.String({ format: 'date-time' });

export const Why = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 100 })),
    detail: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, description: 'Audit context of a command' },
);

/** A command body: {data: {...}, why?}; nothing else is accepted. */
export const Command = <T extends TSchema>(data: T) =>
  Type.Object({ data, why: Type.Optional(Why) }, { additionalProperties: false });

/** A command whose data may be omitted (post): an absent body reads as {}. */
export const OptionalDataCommand = <T extends TObject>(data: T) =>
  Type.Object({ data: Type.Optional(data), why: Type.Optional(Why) }, { additionalProperties: false });

export const IdParams = Type.Object({ id: Uuid });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ description: 'Required on every command; same key for every retry (1-255 visible ASCII)' }),
  ),
});

const isIdKey = (k: string) => k === 'id' || k === 'fid' || k.endsWith('_id') || k.endsWith('_ids');

/**
 * Ids leave the request canonical (lower case), whatever case the client sent, so that every
 * comparison, lock key and stored reference agrees. Only id fields (`id`, `*_id`, `*_ids`,
 * comma lists included) are touched; free text never is.
 */
function canonicalIds(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (!isIdKey(key)) return value;
    return value
      .split(',')
      .map((v) => (UUID_RE.test(v) ? v.toLowerCase() : v))
      .join(',');
  }
  if (Array.isArray(value)) return value.map((v) => canonicalIds(v, key));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = canonicalIds(o[k], k);
  }
  return value;
}

/**
 * Text PostgreSQL cannot store: NUL, and lone UTF-16 surrogates (jsonb refuses them). Refused as
 * input instead of failing in the database.
 */
const unstorable = (s: string) => s.includes('\u0000') || !s.isWellFormed();

function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return unstorable(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}/${i}`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = findNul(v, `${path}/${k}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** A preHandler hook the kit runs on every route: after 401/403/400 and the schema (422). */
export async function normaliseInput(req: FastifyRequest) {
  for (const [part, value] of [
    ['params', req.params],
    ['querystring', req.query],
    ['body', req.body],
  ] as const) {
    const nul = findNul(value, part);
    if (nul) {
      throw unprocessable('validation_failed', `${nul} must not contain NUL characters or lone surrogates`, nul);
    }
    canonicalIds(value);
  }
}
