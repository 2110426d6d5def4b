import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { readableSelection } from '../domain/readable.ts';
import { Document, PAGE, ReadableQuery, UploadedCount, UploadedCountQuery } from '../schemas/documents.ts';
import { countUploaded, readableDocuments } from '../store/documents.ts';
import { type Routes, route } from './deps.ts';

const tags = ['readable files'];

export const readableRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/documents/readable',
    action: 'read',
    tags,
    summary: 'One page of project and unfiled files, newest first',
    description:
      'A project file has a reference with ref_type project (ref_id: the project id); an unfiled file has ' +
      'no references and its owner is the metadata pair owner; the uploader is the metadata pair ' +
      'uploaded_by. all=true lists every such file; otherwise the files of project_ids plus the unfiled ' +
      'files of owner. q matches filename or uploader, ignoring case. project_ids names at most 100 ' +
      'projects (422 too_many_project_ids).',
    query: ReadableQuery,
    response: PageEnvelope(Document),
    errors: ['too_many_project_ids'],
    handler: async ({ query, reply }, deps) => {
      const p = pageRequest(query, PAGE.pageSize);
      const result = await readableDocuments(deps.database.db, readableSelection(query), query.q, p);
      return reply.envelope(result.items, pageMeta(p, result.total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/documents/uploaded-count',
    action: 'read',
    tags,
    summary: 'How many distinct files the same selection as readable holds (q aside)',
    query: UploadedCountQuery,
    response: Envelope(UploadedCount),
    errors: ['too_many_project_ids'],
    handler: async ({ query, reply }, deps) =>
      reply.envelope({ count: await countUploaded(deps.database.db, readableSelection(query)) }),
  }),
];
