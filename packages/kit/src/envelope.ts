import { type TSchema, Type } from '@sinclair/typebox';

/**
 * The `{header, payload}` envelope of every /v1 response. The header is the same for success
 * and errors: which service answered, to which request, when.
 */
export const Header = Type.Object({
  service: Type.String(),
  api_version: Type.Literal('v1'),
  request_id: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
});

export const PagePagination = Type.Object({
  mode: Type.Literal('page'),
  page: Type.Integer({ minimum: 1 }),
  pageSize: Type.Integer({ minimum: 1 }),
  totalItems: Type.Integer({ minimum: 0 }),
  totalPages: Type.Integer({ minimum: 0 }),
});

export const CursorPagination = Type.Object({
  mode: Type.Literal('cursor'),
  limit: Type.Integer({ minimum: 1 }),
  /** Pass back as the `after` query parameter; null on the last page. */
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const ErrorItem = Type.Object({
  code: Type.String(),
  message: Type.String(),
  field: Type.Optional(Type.String()),
  value: Type.Optional(Type.Unknown()),
});

export const ErrorEnvelope = Type.Object(
  {
    header: Header,
    payload: Type.Object({ errors: Type.Array(ErrorItem) }),
  },
  { $id: 'ErrorEnvelope' },
);

export const Envelope = <T extends TSchema>(data: T) => Type.Object({ header: Header, payload: Type.Object({ data }) });

export const PageEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({
    header: Header,
    payload: Type.Object({
      data: Type.Array(item),
      meta: Type.Object({ pagination: PagePagination }),
    }),
  });

export const CursorEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({
    header: Header,
    payload: Type.Object({
      data: Type.Array(item),
      meta: Type.Object({ pagination: CursorPagination }),
    }),
  });

export interface HeaderValue {
  service: string;
  api_version: 'v1';
  request_id: string;
  timestamp: string;
}

export const header = (service: string, requestId: string, now = new Date()): HeaderValue => ({
  service,
  api_version: 'v1',
  request_id: requestId,
  timestamp: now.toISOString(),
});
