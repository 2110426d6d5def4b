import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { readableSelection } from '../domain/readable.ts';
import { Document, PAGE, ReadableQuery, UploadedCount, UploadedCountQuery } from '../schemas/documents.ts';
import { countUploaded, readableDocuments } from '../store/documents.ts';
import { type RouteModule, reader } from './deps.ts';

const tags = ['readable files'];

export const readableRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/documents/readable',
    {
      preValidation: reader('read'),
      schema: {
        tags,
        summary: 'One page of project and unfiled files, newest first',
        description:
          'A project file has a reference with ref_type project (ref_id: the project id); an unfiled file has ' +
          'no references and its owner is the metadata pair owner; the uploader is the metadata pair ' +
          'uploaded_by. all=true lists every such file; otherwise the files of project_ids plus the unfiled ' +
          'files of owner. q matches filename or uploader, ignoring case. project_ids names at most 100 ' +
          'projects (422 too_many_project_ids).',
        querystring: ReadableQuery,
        response: { 200: PageEnvelope(Document) },
      },
    },
    async (req, reply) => {
      const p = pageRequest(req.query, PAGE.pageSize);
      const result = await readableDocuments(deps.database.db, readableSelection(req.query), req.query.q, p);
      return reply.envelope(result.items, pageMeta(p, result.total));
    },
  );

  app.get(
    '/v1/documents/uploaded-count',
    {
      preValidation: reader('read'),
      schema: {
        tags,
        summary: 'How many distinct files the same selection as readable holds (q aside)',
        querystring: UploadedCountQuery,
        response: { 200: Envelope(UploadedCount) },
      },
    },
    async (req, reply) =>
      reply.envelope({ count: await countUploaded(deps.database.db, readableSelection(req.query)) }),
  );
};
