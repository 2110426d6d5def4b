import { uuidv7 } from '@platform/kit';
import { dataSourceName, dataSourceReference, requireNewSource } from '../domain/data-sources.ts';
import type { DataSource, DataSourceInput } from '../schemas/data-sources.ts';
import { dataSourceExists, insertDataSource } from '../store/data-sources.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Connects a data source (editors): a name (1 to 200 characters), a kind and a reference (a URL or
 * an outside id). The same kind and reference twice on a project is 409 data_source_exists.
 * project.data_source_connected carries ids and the kind, never the name or reference.
 */
export async function connectDataSource(
  ctx: CommandCtx,
  projectId: string,
  input: DataSourceInput,
): Promise<DataSource> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const name = dataSourceName(input.name);
  const reference = dataSourceReference(input.reference);
  requireNewSource(await dataSourceExists(trx, project.id, input.kind, reference));
  const source = await insertDataSource(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: project.id,
      name,
      kind: input.kind,
      reference,
      created_by: principal.id,
    },
    now,
  );
  await ctx.emit({
    type: 'project.data_source_connected',
    data: { projectId: project.id, dataSourceId: source.id, kind: source.kind, actor: principal.id },
  });
  return source;
}
