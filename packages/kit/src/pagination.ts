import { Type } from '@sinclair/typebox';

/**
 * Page mode: `pagination[page]` and `pagination[pageSize]` query parameters (spec 1,
 * convention 1). Over the maximum size is refused by the schema, not silently capped.
 */
export const pageQuery = (defaults: { pageSize: number; maxPageSize: number }) => ({
  'pagination[page]': Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  'pagination[pageSize]': Type.Optional(
    Type.Integer({ minimum: 1, maximum: defaults.maxPageSize, default: defaults.pageSize }),
  ),
});

export interface PageRequest {
  page: number;
  pageSize: number;
}

export const pageRequest = (
  q: { 'pagination[page]'?: number; 'pagination[pageSize]'?: number },
  pageSize: number,
): PageRequest => ({
  page: q['pagination[page]'] ?? 1,
  pageSize: q['pagination[pageSize]'] ?? pageSize,
});

export const pageMeta = (req: PageRequest, totalItems: number) => ({
  pagination: {
    mode: 'page' as const,
    page: req.page,
    pageSize: req.pageSize,
    totalItems,
    totalPages: Math.ceil(totalItems / req.pageSize),
  },
});

/**
 * Cursor mode: `after` and `limit`. The cursor is opaque to clients: base64url of the last
 * item's sort key.
 */
export const cursorQuery = (defaults: { limit: number; maxLimit: number }) => ({
  after: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: defaults.maxLimit, default: defaults.limit })),
});

export const encodeCursor = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string): unknown[] | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

export const cursorMeta = (limit: number, nextKey: unknown[] | null) => ({
  pagination: { mode: 'cursor' as const, limit, nextCursor: nextKey ? encodeCursor(nextKey) : null },
});
