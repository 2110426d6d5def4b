import { Command } from '@platform/kit';
import { Type } from '@sinclair/typebox';

export const SqlBody = Command(
  Type.Object(
    { sql: Type.String({ minLength: 1, maxLength: 100_000, description: 'One statement; it only reads' }) },
    { additionalProperties: false },
  ),
);

export const SqlResult = Type.Object({
  columns: Type.Array(Type.Object({ name: Type.String(), type_oid: Type.Integer() })),
  rows: Type.Array(Type.Array(Type.Unknown())),
  truncated: Type.Boolean({ description: 'More rows existed than the row cap' }),
  row_cap: Type.Integer(),
});
