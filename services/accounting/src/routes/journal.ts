import { Envelope, notFound, PageEnvelope, pageMeta, pageQuery, pageRequest, UUID_PATTERN } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { deleteEntry, deletionCheck } from '../commands/deletion.ts';
import { createEntry, editDraft, postEntry, reverseEntry } from '../commands/journal.ts';
import { Command, DateString, IdParams, MonthStart, OptionalDataCommand, Uuid } from '../schemas/common.ts';
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
import { type Routes, route } from './deps.ts';

const tags = ['journal entries'];
const UUID_ONE = UUID_PATTERN.slice(1, -1);
const PAGE = { pageSize: 25, maxPageSize: 100 };
/** What DELETE refuses with (domain/deletion.ts), besides an unknown entry. */
const DELETION_REFUSALS = [
  'journal_entry_not_found',
  'billing_document_entry',
  'unlinked_entries_not_groupable',
  'related_entry_not_found',
  'related_entry_mismatch',
  'payment_linked_entry',
  'entry_is_reversal',
  'entry_has_reversal',
  'period_closed',
] as const;

export const journalRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/journal-entries',
    action: 'journal.write',
    tags,
    summary: 'Create a draft entry (manual when made by a person, generated when by a service)',
    body: Command(EntryInput),
    response: Envelope(Entry),
    status: 201,
    errors: [
      'legal_entity_not_found',
      'account_not_found',
      'account_not_in_chart',
      'account_not_postable',
      'billing_reference_not_allowed',
      'payment_id_not_allowed',
      'amount_too_large',
    ],
    run: (ctx, { body }) => createEntry(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/journal-entries',
    action: 'journal.read',
    tags,
    summary: 'List entries; posting-month and transaction-date bounds are inclusive',
    query: Type.Object({
      ...pageQuery(PAGE),
      legal_entity_id: Type.Optional(Uuid),
      status: Type.Optional(Type.Unsafe<'draft' | 'posted'>({ type: 'string', enum: ['draft', 'posted'] })),
      payment_id: Type.Optional(Uuid),
      from_post_month: Type.Optional(MonthStart),
      to_post_month: Type.Optional(MonthStart),
      from_date: Type.Optional(DateString),
      to_date: Type.Optional(DateString),
    }),
    response: PageEnvelope(EntrySummary),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, PAGE.pageSize);
      const { items, total } = await listEntries(deps.database.db, query, page.page, page.pageSize);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/journal-entries/:id',
    action: 'journal.read',
    tags,
    summary: 'One entry with its lines',
    params: IdParams,
    response: Envelope(Entry),
    errors: ['journal_entry_not_found'],
    handler: async ({ params, reply }, deps) => {
      const entry = await loadEntry(deps.database.db, params.id);
      if (!entry) throw notFound('Journal entry', 'journal_entry_not_found');
      return reply.envelope(entry);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/journal-entries/:id/draft',
    action: 'journal.write',
    tags,
    summary: 'Replace the description, transaction date and lines of a manual draft',
    params: IdParams,
    body: Command(DraftInput),
    response: Envelope(Entry),
    errors: [
      'journal_entry_not_found',
      'entry_not_editable',
      'legal_entity_immutable',
      'account_not_found',
      'account_not_in_chart',
      'account_not_postable',
      'billing_reference_not_allowed',
      'amount_too_large',
    ],
    run: (ctx, { params, body }) => editDraft(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/journal-entries/:id/post',
    action: 'journal.write',
    tags,
    summary: "Post a draft into the entity's Open month, or an allowed ?post_month",
    params: IdParams,
    query: Type.Object({ post_month: Type.Optional(MonthStart) }),
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    emptyBody: true,
    response: Envelope(Entry),
    errors: [
      'journal_entry_not_found',
      'entry_already_posted',
      'unbalanced_entry',
      'amount_too_large',
      'period_calendar_not_configured',
      'legal_entity_inactive',
      'post_month_not_allowed',
      'period_out_of_range',
      'account_not_found',
      'account_not_in_chart',
      'account_not_postable',
      'billing_reference_not_allowed',
    ],
    run: (ctx, { params, query }) => postEntry(ctx, params.id, query.post_month),
  }),

  route({
    method: 'POST',
    url: '/v1/journal-entries/:id/reverse',
    action: 'journal.write',
    tags,
    summary: 'Create a reversal draft of a posted entry',
    params: IdParams,
    body: OptionalDataCommand(ReverseInput),
    emptyBody: true,
    response: Envelope(Entry),
    status: 201,
    errors: [
      'journal_entry_not_found',
      'entry_not_posted',
      'entry_already_reversed',
      'billing_reference_not_allowed',
      'period_calendar_not_configured',
    ],
    run: (ctx, { params, body }) => reverseEntry(ctx, params.id, body.data?.entry_date),
  }),

  route({
    method: 'DELETE',
    url: '/v1/journal-entries/:id',
    action: 'journal.delete',
    tags,
    summary: 'Remove a mistaken entry (and related payment-linked entries); a snapshot is kept',
    params: IdParams,
    body: Command(DeleteInput),
    response: Envelope(DeleteResult),
    errors: DELETION_REFUSALS,
    run: (ctx, { params, body }) => deleteEntry(ctx, params.id, body.data, body.why),
  }),

  route({
    method: 'GET',
    url: '/v1/journal-entries/:id/deletion-check',
    action: 'journal.delete',
    tags,
    summary: 'Would DELETE be allowed? Evaluates the same rules; changes nothing',
    params: IdParams,
    query: Type.Object({
      related_entry_ids: Type.Optional(
        Type.String({
          pattern: `^${UUID_ONE}(,${UUID_ONE}){0,99}$`,
          description: 'Comma-separated ids',
        }),
      ),
    }),
    response: Envelope(DeletionCheck),
    errors: ['journal_entry_not_found'],
    handler: async ({ params, query, principal, reply }, deps) => {
      const related = query.related_entry_ids ? query.related_entry_ids.split(',') : [];
      return reply.envelope(await deletionCheck(deps.database.db, principal, params.id, related));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/deleted-journal-entries',
    action: 'deletions.read',
    tags,
    summary: 'Deletion audit snapshots, newest first',
    query: Type.Object({ ...pageQuery(PAGE), legal_entity_id: Type.Optional(Uuid) }),
    response: PageEnvelope(DeletedEntry),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, PAGE.pageSize);
      const { items, total } = await listSnapshots(deps.database.db, query.legal_entity_id, page.page, page.pageSize);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/deleted-journal-entries/:id',
    action: 'deletions.read',
    tags,
    summary: 'The deletion snapshot of one entry',
    params: IdParams,
    response: Envelope(DeletedEntry),
    errors: ['deleted_entry_not_found'],
    handler: async ({ params, reply }, deps) => {
      const snap = await findSnapshot(deps.database.db, params.id);
      if (!snap) throw notFound('Deleted entry', 'deleted_entry_not_found');
      return reply.envelope(snap);
    },
  }),
];
