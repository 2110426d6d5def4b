import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { vendorNotFound } from '../commands/firms.ts';
import { recordCertificate } from '../commands/insurance.ts';
import { today } from '../domain/insurance.ts';
import { Command, IdempotencyHeaders, IdParams } from '../schemas/common.ts';
import { Certificate, CertificateInput, CurrentCertificate, InsuranceListQuery } from '../schemas/insurance.ts';
import { findFirm } from '../store/firms.ts';
import { certificatesOf, currentInsurancePage } from '../store/insurance.ts';
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['insurance'];
const READERS = 'Employees (internal-application gateway token) and platform services on behalf of a person.';

export const insuranceRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/vendors/:id/insurance',
    {
      preValidation: commander(deps),
      schema: {
        tags,
        summary: 'Record a certificate',
        description:
          'Employees listed in VENDORS_EDITORS. Coverage + policy number + start date is unique per firm (409 insurance_exists); expiry must not be before start (422 expiry_before_start); coverage other needs coverage_description (422 coverage_description_required), any other coverage refuses it (422 coverage_description_not_allowed); an unknown firm is 404 vendor_not_found. Each description of coverage other (ignoring case) is its own line.',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(CertificateInput),
        response: { 201: Envelope(Certificate) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => recordCertificate(ctx, req.params.id, req.body.data), 201),
  );

  app.get(
    '/v1/vendors/:id/insurance',
    {
      preValidation: reader(deps),
      schema: {
        tags,
        summary: 'Every certificate the firm has given, newest start first (expired and superseded included)',
        description: `${READERS} An unknown firm is 404 vendor_not_found.`,
        params: IdParams,
        querystring: Type.Object(pageQuery({ pageSize: 50, maxPageSize: 200 }), { additionalProperties: false }),
        response: { 200: PageEnvelope(Certificate) },
      },
    },
    async (req, reply) => {
      const db = deps.database.db;
      if (!(await findFirm(db, req.params.id))) throw vendorNotFound();
      const page = pageRequest(req.query, 50);
      const { items, total } = await certificatesOf(db, req.params.id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.get(
    '/v1/vendor-insurance',
    {
      preValidation: reader(deps),
      schema: {
        tags,
        summary: "Each active firm's latest certificate per coverage, soonest expiry first",
        description: `${READERS} Latest = latest start date; on equal starts, the later recorded. Each description of coverage other (ignoring case) is its own line; coverage=other lists them all.`,
        querystring: Type.Object(
          { ...InsuranceListQuery.properties, ...pageQuery({ pageSize: 50, maxPageSize: 200 }) },
          { additionalProperties: false },
        ),
        response: { 200: PageEnvelope(CurrentCertificate) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, 50);
      const filter = { coverage: req.query.coverage, status: req.query.status, today: today(deps.clock()) };
      const { items, total } = await currentInsurancePage(deps.database.db, filter, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  );
};
