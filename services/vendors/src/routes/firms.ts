import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest, UUID_RE, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { changeFirmStatus, registerFirm, vendorNotFound } from '../commands/firms.ts';
import { MAX_IDS, parseIds } from '../domain/firms.ts';
import { Command, IdParams } from '../schemas/common.ts';
import { Firm, FirmDetail, FirmInput, FirmListQuery, StatusInput } from '../schemas/firms.ts';
import { contactsOf } from '../store/contacts.ts';
import { findFirm, listFirms } from '../store/firms.ts';
import { currentCertificatesOf } from '../store/insurance.ts';
import { module, type Routes, route } from './deps.ts';

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

export const FIRM_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/vendors',
    action: 'change',
    tags,
    summary: 'Add a firm',
    description: `${EDITORS} A name held by another firm, ignoring case, is 409 vendor_exists. kind other needs kind_description (422 kind_description_required); any other kind refuses it (422 kind_description_not_allowed).`,
    body: Command(FirmInput),
    response: Envelope(Firm),
    status: 201,
    errors: ['vendor_exists', 'kind_description_required', 'kind_description_not_allowed'],
    run: (ctx, { body }) => registerFirm(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/vendors',
    action: 'read',
    tags,
    summary: 'List firms by name',
    description: `${READERS} Filters status, kind, q (part of the name, ignoring case) and ids (comma-separated UUIDs, at most ${MAX_IDS} distinct: more is 422 too_many_ids). An unknown or repeated parameter is 422.`,
    query: Type.Object(
      { ...FirmListQuery.properties, ...pageQuery({ pageSize: 50, maxPageSize: 200 }) },
      // A misspelled filter is 422, not silently ignored (an unfiltered list).
      { additionalProperties: false },
    ),
    response: PageEnvelope(Firm),
    errors: ['too_many_ids'],
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 50);
      const { status, kind, q } = query;
      const { items, total } = await listFirms(deps.database.db, { status, kind, q, ids: idsFilter(query.ids) }, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/vendors/:id',
    action: 'read',
    tags,
    summary: 'One firm with its people and its insurance now',
    description: `${READERS} Insurance now: the latest certificate per coverage (per description for coverage other). An unknown firm is 404 vendor_not_found.`,
    params: IdParams,
    response: Envelope(FirmDetail),
    errors: ['vendor_not_found'],
    handler: async ({ params, reply }, deps) => {
      const db = deps.database.db;
      const firm = await findFirm(db, params.id);
      if (!firm) throw vendorNotFound();
      const [contacts, insurance] = await Promise.all([contactsOf(db, firm.id), currentCertificatesOf(db, firm.id)]);
      return reply.envelope({ ...firm, contacts, insurance });
    },
  }),

  route({
    method: 'POST',
    url: '/v1/vendors/:id/status',
    action: 'change',
    tags,
    summary: 'Mark a firm active or inactive',
    description: `${EDITORS} Setting the status a firm already has changes nothing and emits no event. An unknown firm is 404 vendor_not_found.`,
    params: IdParams,
    body: Command(StatusInput),
    response: Envelope(Firm),
    errors: ['vendor_not_found'],
    run: (ctx, { params, body }) => changeFirmStatus(ctx, params.id, body.data.status),
  }),
];

export const firmRoutes = module(FIRM_ROUTES);
