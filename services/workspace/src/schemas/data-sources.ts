import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { DATA_SOURCE_KINDS, DATA_SOURCE_PAGE } from '../domain/data-sources.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

export const DataSourceKindName = Type.Union(
  DATA_SOURCE_KINDS.map((k) => Type.Literal(k)),
  { description: DATA_SOURCE_KINDS.join(', ') },
);

export const DataSource = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  kind: DataSourceKindName,
  reference: Type.String({ description: 'A URL or an outside id' }),
  created_by: PrincipalId,
  created_at: Timestamp,
});
export type DataSource = Static<typeof DataSource>;

export const DataSourceInput = Type.Object(
  {
    name: Type.String({ description: 'Trimmed; 1 to 200 characters (422 invalid_name)' }),
    kind: DataSourceKindName,
    reference: Type.String({
      description: 'A URL or an outside id; trimmed, 1 to 2,000 characters, no spaces (422 invalid_reference)',
    }),
  },
  { additionalProperties: false },
);
export type DataSourceInput = Static<typeof DataSourceInput>;

export const DataSourceListQuery = Type.Object({ ...pageQuery(DATA_SOURCE_PAGE) }, { additionalProperties: false });
