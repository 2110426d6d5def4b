import {
  Envelope,
  emptyBodyAsObject,
  notFound,
  PageEnvelope,
  pageMeta,
  pageQuery,
  pageRequest,
  UUID_PATTERN,
} from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { deleteEntry, deletionCheck } from '../commands/deletion.ts';
import { createEntry, editDraft, postEntry, reverseEntry } from '../commands/journal.ts';
import {
  Command,
  DateString,
  IdempotencyHeaders,
  IdParams,
  MonthStart,
  OptionalDataCommand,
  Uuid,
} from '../schemas/common.ts';
import {
  DeletedEntry,
  DeleteInput,
  DeleteResult,
  DeletionCheck,
  DraftInput,
  Entry,
  EntryInput,
  EntrySummary,
  ReverseInput,
} from '../schemas/journal.ts';
import { findSnapshot, listSnapshots } from '../store/deletions.ts';
import { listEntries, loadEntry } from '../store/journal.ts';
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['journal entries'];
const UUID_ONE = UUID_PATTERN.slice(1, -1);
const PAGE = { pageSize: 25, maxPageSize: 100 };

export const journalRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/journal-entries',
    {
      preValidation: commander('journal.write'),
      schema: {
        tags,
        summary: 'Create a draft entry (manual when made by a person, generated when by a service)',
        headers: IdempotencyHeaders,
        body: Command(EntryInput),
        response: { 201: Envelope(Entry) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => createEntry(ctx, req.body.data), 201),
  );

  app.get(
    '/v1/journal-entries',
    {
      preValidation: reader('journal.read'),
      schema: {
        tags,
        summary: 'List entries; posting-month and transaction-date bounds are inclusive',
        querystring: Type.Object({
          ...pageQuery(PAGE),
          legal_entity_id: Type.Optional(Uuid),
          status: Type.Optional(Type.Unsafe<'draft' | 'posted'>({ type: 'string', enum: ['draft', 'posted'] })),
          payment_id: Type.Optional(Uuid),
          from_post_month: Type.Optional(MonthStart),
          to_post_month: Type.Optional(MonthStart),
          from_date: Type.Optional(DateString),
          to_date: Type.Optional(DateString),
        }),
        response: { 200: PageEnvelope(EntrySummary) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, PAGE.pageSize);
      const { items, total } = await listEntries(deps.database.db, req.query, page.page, page.pageSize);
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.get(
    '/v1/journal-entries/:id',
    {
      preValidation: reader('journal.read'),
      schema: { tags, summary: 'One entry with its lines', params: IdParams, response: { 200: Envelope(Entry) } },
    },
    async (req, reply) => {
      const entry = await loadEntry(deps.database.db, req.params.id);
      if (!entry) throw notFound('Journal entry', 'journal_entry_not_found');
      return reply.envelope(entry);
    },
  );

  app.post(
    '/v1/journal-entries/:id/draft',
    {
      preValidation: commander('journal.write'),
      schema: {
        tags,
        summary: 'Replace the description, transaction date and lines of a manual draft',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(DraftInput),
        response: { 200: Envelope(Entry) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => editDraft(ctx, req.params.id, req.body.data)),
  );

  app.post(
    '/v1/journal-entries/:id/post',
    {
      preValidation: [...commander('journal.write'), emptyBodyAsObject],
      schema: {
        tags,
        summary: "Post a draft into the entity's Open month, or an allowed ?post_month",
        headers: IdempotencyHeaders,
        params: IdParams,
        querystring: Type.Object({ post_month: Type.Optional(MonthStart) }),
        body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
        response: { 200: Envelope(Entry) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => postEntry(ctx, req.params.id, req.query.post_month)),
  );

  app.post(
    '/v1/journal-entries/:id/reverse',
    {
      preValidation: [...commander('journal.write'), emptyBodyAsObject],
      schema: {
        tags,
        summary: 'Create a reversal draft of a posted entry',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: OptionalDataCommand(ReverseInput),
        response: { 201: Envelope(Entry) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => reverseEntry(ctx, req.params.id, req.body.data?.entry_date), 201),
  );

  app.delete(
    '/v1/journal-entries/:id',
    {
      preValidation: commander('journal.delete'),
      schema: {
        tags,
        summary: 'Remove a mistaken entry (and related payment-linked entries); a snapshot is kept',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(DeleteInput),
        response: { 200: Envelope(DeleteResult) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => deleteEntry(ctx, req.params.id, req.body.data, req.body.why)),
  );

  app.get(
    '/v1/journal-entries/:id/deletion-check',
    {
      preValidation: reader('journal.delete'),
      schema: {
        tags,
        summary: 'Would DELETE be allowed? Evaluates the same rules; changes nothing',
        params: IdParams,
        querystring: Type.Object({
          related_entry_ids: Type.Optional(
            Type.String({
              pattern: `^${UUID_ONE}(,${UUID_ONE}){0,99}$`,
              description: 'Comma-separated ids',
            }),
          ),
        }),
        response: { 200: Envelope(DeletionCheck) },
      },
    },
    async (req, reply) => {
      const related = req.query.related_entry_ids ? req.query.related_entry_ids.split(',') : [];
      return reply.envelope(await deletionCheck(deps.database.db, req.principal as never, req.params.id, related));
    },
  );

  app.get(
    '/v1/deleted-journal-entries',
    {
      preValidation: reader('deletions.read'),
      schema: {
        tags,
        summary: 'Deletion audit snapshots, newest first',
        querystring: Type.Object({ ...pageQuery(PAGE), legal_entity_id: Type.Optional(Uuid) }),
        response: { 200: PageEnvelope(DeletedEntry) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, PAGE.pageSize);
      const { items, total } = await listSnapshots(
        deps.database.db,
        req.query.legal_entity_id,
        page.page,
        page.pageSize,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.get(
    '/v1/deleted-journal-entries/:id',
    {
      preValidation: reader('deletions.read'),
      schema: {
        tags,
        summary: 'The deletion snapshot of one entry',
        params: IdParams,
        response: { 200: Envelope(DeletedEntry) },
      },
    },
    async (req, reply) => {
      const snap = await findSnapshot(deps.database.db, req.params.id);
      if (!snap) throw notFound('Deleted entry', 'deleted_entry_not_found');
      return reply.envelope(snap);
    },
  );
};
