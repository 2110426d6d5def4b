import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { vendorNotFound } from '../commands/firms.ts';
import { recordCertificate } from '../commands/insurance.ts';
import { today } from '../domain/insurance.ts';
import { Command, IdParams } from '../schemas/common.ts';
import { Certificate, CertificateInput, CurrentCertificate, InsuranceListQuery } from '../schemas/insurance.ts';
import { findFirm } from '../store/firms.ts';
import { certificatesOf, currentInsurancePage } from '../store/insurance.ts';
import { module, type Routes, route } from './deps.ts';

const tags = ['insurance'];
const READERS = 'Employees (internal-application gateway token) and platform services on behalf of a person.';

export const INSURANCE_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/vendors/:id/insurance',
    action: 'change',
    tags,
    summary: 'Record a certificate',
    description:
      'Employees listed in VENDORS_EDITORS. Coverage + policy number + start date is unique per firm (409 insurance_exists); expiry must not be before start (422 expiry_before_start); coverage other needs coverage_description (422 coverage_description_required), any other coverage refuses it (422 coverage_description_not_allowed); an unknown firm is 404 vendor_not_found. Each description of coverage other (ignoring case) is its own line.',
    params: IdParams,
    body: Command(CertificateInput),
    response: Envelope(Certificate),
    status: 201,
    errors: [
      'vendor_not_found',
      'insurance_exists',
      'expiry_before_start',
      'coverage_description_required',
      'coverage_description_not_allowed',
    ],
    run: (ctx, { params, body }) => recordCertificate(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/vendors/:id/insurance',
    action: 'read',
    tags,
    summary: 'Every certificate the firm has given, newest start first (expired and superseded included)',
    description: `${READERS} An unknown firm is 404 vendor_not_found.`,
    params: IdParams,
    query: Type.Object(pageQuery({ pageSize: 50, maxPageSize: 200 }), { additionalProperties: false }),
    response: PageEnvelope(Certificate),
    errors: ['vendor_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      const db = deps.database.db;
      if (!(await findFirm(db, params.id))) throw vendorNotFound();
      const page = pageRequest(query, 50);
      const { items, total } = await certificatesOf(db, params.id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/vendor-insurance',
    action: 'read',
    tags,
    summary: "Each active firm's latest certificate per coverage, soonest expiry first",
    description: `${READERS} Latest = latest start date; on equal starts, the later recorded. Each description of coverage other (ignoring case) is its own line; coverage=other lists them all.`,
    query: Type.Object(
      { ...InsuranceListQuery.properties, ...pageQuery({ pageSize: 50, maxPageSize: 200 }) },
      { additionalProperties: false },
    ),
    response: PageEnvelope(CurrentCertificate),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 50);
      const filter = { coverage: query.coverage, status: query.status, today: today(deps.clock()) };
      const { items, total } = await currentInsurancePage(deps.database.db, filter, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),
];

export const insuranceRoutes = module(INSURANCE_ROUTES);
