import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest, UUID_RE, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { changeFirmStatus, registerFirm, vendorNotFound } from '../commands/firms.ts';
import { MAX_IDS, parseIds } from '../domain/firms.ts';
import { Command, IdempotencyHeaders, IdParams } from '../schemas/common.ts';
import { Firm, FirmDetail, FirmInput, FirmListQuery, StatusInput } from '../schemas/firms.ts';
import { contactsOf } from '../store/contacts.ts';
import { findFirm, listFirms } from '../store/firms.ts';
import { currentCertificatesOf } from '../store/insurance.ts';
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['vendors'];
const READERS = 'Employees (internal-application gateway token) and platform services on behalf of a person.';
const EDITORS = 'Employees listed in VENDORS_EDITORS.';

/** The ids filter: distinct UUIDs, at most MAX_IDS (422 otherwise). */
function idsFilter(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = parseIds(raw);
  const bad = ids.find((id) => !UUID_RE.test(id));
  if (ids.length === 0 || bad !== undefined) {
    throw unprocessable('validation_failed', 'ids must be comma-separated firm ids (UUIDs)', 'querystring/ids');
  }
  if (ids.length > MAX_IDS) {
    throw unprocessable(
      'too_many_ids',
      `ids names ${ids.length} firms; at most ${MAX_IDS} are allowed`,
      'querystring/ids',
    );
  }
  return ids;
}

export const firmRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/vendors',
    {
      preValidation: commander(deps),
      schema: {
        tags,
        summary: 'Add a firm',
        description: `${EDITORS} A name held by another firm, ignoring case, is 409 vendor_exists. kind other needs kind_description (422 kind_description_required); any other kind refuses it (422 kind_description_not_allowed).`,
        headers: IdempotencyHeaders,
        body: Command(FirmInput),
        response: { 201: Envelope(Firm) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => registerFirm(ctx, req.body.data), 201),
  );

  app.get(
    '/v1/vendors',
    {
      preValidation: reader(deps),
      schema: {
        tags,
        summary: 'List firms by name',
        description: `${READERS} Filters status, kind, q (part of the name, ignoring case) and ids (comma-separated UUIDs, at most ${MAX_IDS} distinct: more is 422 too_many_ids). An unknown or repeated parameter is 422.`,
        querystring: Type.Object(
          { ...FirmListQuery.properties, ...pageQuery({ pageSize: 50, maxPageSize: 200 }) },
          // A misspelled filter is 422, not silently ignored (an unfiltered list).
          { additionalProperties: false },
        ),
        response: { 200: PageEnvelope(Firm) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, 50);
      const { status, kind, q } = req.query;
      const { items, total } = await listFirms(
        deps.database.db,
        { status, kind, q, ids: idsFilter(req.query.ids) },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.get(
    '/v1/vendors/:id',
    {
      preValidation: reader(deps),
      schema: {
        tags,
        summary: 'One firm with its people and its insurance now',
        description: `${READERS} Insurance now: the latest certificate per coverage (per description for coverage other). An unknown firm is 404 vendor_not_found.`,
        params: IdParams,
        response: { 200: Envelope(FirmDetail) },
      },
    },
    async (req, reply) => {
      const db = deps.database.db;
      const firm = await findFirm(db, req.params.id);
      if (!firm) throw vendorNotFound();
      const [contacts, insurance] = await Promise.all([contactsOf(db, firm.id), currentCertificatesOf(db, firm.id)]);
      return reply.envelope({ ...firm, contacts, insurance });
    },
  );

  app.post(
    '/v1/vendors/:id/status',
    {
      preValidation: commander(deps),
      schema: {
        tags,
        summary: 'Mark a firm active or inactive',
        description: `${EDITORS} Setting the status a firm already has changes nothing and emits no event. An unknown firm is 404 vendor_not_found.`,
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(StatusInput),
        response: { 200: Envelope(Firm) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => changeFirmStatus(ctx, req.params.id, req.body.data.status)),
  );
};
