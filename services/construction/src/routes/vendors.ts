import {
  Command,
  Envelope,
  notFound,
  OptionalDataCommand,
  PageEnvelope,
  type Principal,
  pageMeta,
  pageRequest,
} from '@platform/kit';
import { vendorsUnavailable } from '../clients/vendors.ts';
import { agreeFee, assignVendor, endVendorAssignment, recordInvoice } from '../commands/vendors.ts';
import { FEE_PAGE, feeNotFound, requireActiveFirm } from '../domain/vendors.ts';
import {
  Assignment,
  AssignmentInput,
  AssignmentListQuery,
  AssignmentParams,
  EndInput,
  Fee,
  FeeInput,
  FeeListQuery,
  FeeParams,
  FirmFees,
  Invoice,
  InvoiceInput,
  PageOnlyQuery,
  ProjectFirm,
  ProjectParams,
  VendorParams,
} from '../schemas/vendors.ts';
import {
  findFee,
  listAssignments,
  listFees,
  listInvoices,
  projectExists,
  projectFeeTotals,
  projectFirms,
} from '../store/vendors.ts';
import { type RouteDeps, type Routes, route } from './deps.ts';

const tags = ['vendors'];

/** Who the vendors service is asked on behalf of: the caller's email (its FID when it has none). */
const onBehalfOf = (p: Principal) => p.email ?? p.id;

/**
 * The firm, asked of the vendors service before the command's transaction opens (never inside
 * it): unknown 404 vendor_not_found, inactive 409 vendor_inactive, a contact not of the firm 422;
 * no answer, a hang past CONSTRUCTION_UPSTREAM_TIMEOUT_MS or no address 502 vendors_unavailable.
 */
async function checkFirm(deps: RouteDeps, vendorId: string, principal: Principal, contactId?: string) {
  if (!deps.vendors) throw vendorsUnavailable('CONSTRUCTION_VENDORS_URL is not set');
  requireActiveFirm(await deps.vendors.firm(vendorId, onBehalfOf(principal)), contactId);
}

const projectNotFound = () => notFound('Development project', 'project_not_found');

const FIRM_CHECK =
  'The firm is checked with the vendors service first, on behalf of the caller: unknown 404 vendor_not_found, ' +
  'inactive 409 vendor_inactive, and when the vendors service does not answer in CONSTRUCTION_UPSTREAM_TIMEOUT_MS ' +
  '(or CONSTRUCTION_VENDORS_URL is unset) 502 vendors_unavailable; nothing is written then.';
const CLOSED = 'A completed or cancelled project takes no more work (409 project_closed).';

export const vendorRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/vendors/:id/assignments',
    action: 'ManageVendors',
    tags,
    summary: 'Put a firm on a project with its role and contact (editors)',
    description:
      `${FIRM_CHECK} contact_id, when given, must be one of the firm's contacts in the vendors service (422 ` +
      `validation_failed); construction keeps only the ids of the firm and the contact. started_on defaults to ` +
      `today. ${CLOSED} Publishes vendor_assignment.started.`,
    params: VendorParams,
    body: Command(AssignmentInput),
    response: Envelope(Assignment),
    status: 201,
    errors: ['vendor_not_found', 'vendor_inactive', 'vendors_unavailable', 'project_not_found', 'project_closed'],
    options: ({ params, body, principal }, deps) => ({
      beforeTransaction: () => checkFirm(deps, params.id, principal, body.data.contact_id),
    }),
    run: (ctx, { params, body }) => assignVendor(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/vendors/:id/assignments/:assignment_id/end',
    action: 'ManageVendors',
    tags,
    summary: 'Take a firm off the project of this assignment (editors)',
    description:
      'ended_on defaults to today and is not before started_on (422 validation_failed). Ending an ended ' +
      `assignment changes nothing and answers it as it is. The vendors service is not asked. ${CLOSED} ` +
      'Publishes vendor_assignment.ended.',
    params: AssignmentParams,
    body: OptionalDataCommand(EndInput),
    emptyBody: true,
    response: Envelope(Assignment),
    errors: ['assignment_not_found', 'project_not_found', 'project_closed'],
    run: (ctx, { params, body }) => endVendorAssignment(ctx, params.id, params.assignment_id, body.data ?? {}),
  }),

  route({
    method: 'GET',
    url: '/v1/vendors/:id/assignments',
    action: 'ReadVendors',
    tags,
    summary: "A firm's assignments: every open one before every ended one, each group in the order made",
    description:
      'project_id narrows to one project. Read from construction only: a firm the vendors service does not know ' +
      'simply has none. Page mode, 50 by default, at most 200.',
    params: VendorParams,
    query: AssignmentListQuery,
    response: PageEnvelope(Assignment),
    handler: async ({ params, query, reply }, deps) => {
      const page = pageRequest(query, FEE_PAGE.pageSize);
      const { items, total } = await listAssignments(deps.database.db, params.id, query.project_id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/vendors/:id/fees',
    action: 'ManageVendors',
    tags,
    summary: 'Agree a design fee with a firm on a project (editors)',
    description:
      `${FIRM_CHECK} The firm must be on the project (an open assignment; else 409 vendor_not_on_project). ` +
      `agreed_minor is an integer in minor units. ${CLOSED} Publishes design_fee.agreed.`,
    params: VendorParams,
    body: Command(FeeInput),
    response: Envelope(Fee),
    status: 201,
    errors: [
      'vendor_not_found',
      'vendor_inactive',
      'vendors_unavailable',
      'project_not_found',
      'project_closed',
      'vendor_not_on_project',
    ],
    options: ({ params, principal }, deps) => ({
      beforeTransaction: () => checkFirm(deps, params.id, principal),
    }),
    run: (ctx, { params, body }) => agreeFee(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/vendors/:id/fees',
    action: 'ReadVendors',
    tags,
    summary: "A firm's design fees with agreed, invoiced and remaining, in the order agreed",
    description: 'project_id narrows to one project. Page mode, 50 by default, at most 200.',
    params: VendorParams,
    query: FeeListQuery,
    response: PageEnvelope(Fee),
    handler: async ({ params, query, reply }, deps) => {
      const page = pageRequest(query, FEE_PAGE.pageSize);
      const { items, total } = await listFees(deps.database.db, params.id, query.project_id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/vendors/:id/fees/:fee_id/invoices',
    action: 'ManageVendors',
    tags,
    summary: "Record a firm's invoice against a design fee; it counts as invoiced (editors)",
    description:
      'The invoiced total may reach the agreed fee but not pass it (409 fee_exceeded); an invoice number the fee ' +
      'already has, ignoring case, is 409 invoice_number_taken. The firm need not still be on the project and the ' +
      `vendors service is not asked. ${CLOSED} Publishes design_fee.invoice_recorded.`,
    params: FeeParams,
    body: Command(InvoiceInput),
    response: Envelope(Invoice),
    status: 201,
    errors: ['fee_not_found', 'project_not_found', 'project_closed', 'fee_exceeded', 'invoice_number_taken'],
    run: (ctx, { params, body }) => recordInvoice(ctx, params.id, params.fee_id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/vendors/:id/fees/:fee_id/invoices',
    action: 'ReadVendors',
    tags,
    summary: "A design fee's invoices, latest invoice date first",
    description: 'A fee of another firm is 404 fee_not_found. Page mode, 50 by default, at most 200.',
    params: FeeParams,
    query: PageOnlyQuery,
    response: PageEnvelope(Invoice),
    errors: ['fee_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      const fee = await findFee(deps.database.db, params.id, params.fee_id);
      if (!fee) throw feeNotFound();
      const page = pageRequest(query, FEE_PAGE.pageSize);
      const { items, total } = await listInvoices(deps.database.db, fee, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/development-projects/:projectId/vendors',
    action: 'ReadVendors',
    tags,
    summary: 'The firms on a project (open assignments), in the order they came on, with their roles',
    description:
      'Each firm carries its name and status from the vendors service, asked once for the page on behalf of the ' +
      'caller; when it does not answer (or CONSTRUCTION_VENDORS_URL is unset) the list is still answered, with ' +
      'name and status null. Page mode, 50 by default, at most 200.',
    params: ProjectParams,
    query: PageOnlyQuery,
    response: PageEnvelope(ProjectFirm),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply, req }, deps) => {
      if (!(await projectExists(deps.database.db, params.projectId))) throw projectNotFound();
      const page = pageRequest(query, FEE_PAGE.pageSize);
      const { items, total } = await projectFirms(deps.database.db, params.projectId, page);
      let named = new Map<string, { name: string; status: 'active' | 'inactive' }>();
      if (deps.vendors && items.length > 0) {
        try {
          const firms = await deps.vendors.firms(
            items.map((f) => f.vendor_id),
            onBehalfOf(req.principal as Principal),
          );
          named = new Map(firms.map((f) => [f.id, { name: f.name, status: f.status }]));
        } catch (e) {
          req.log.warn({ err: e }, 'vendors did not answer: firms listed without names');
        }
      }
      const data = items.map((f) => ({
        vendor_id: f.vendor_id,
        name: named.get(f.vendor_id)?.name ?? null,
        status: named.get(f.vendor_id)?.status ?? null,
        assignments: f.assignments,
      }));
      return reply.envelope(data, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/development-projects/:projectId/design-fees',
    action: 'ReadVendors',
    tags,
    summary: "The project's design fees per firm: agreed, invoiced and remaining, in firm id order",
    description: 'Every fee agreed on the project counts, whether or not the firm is still on it. Page mode.',
    params: ProjectParams,
    query: PageOnlyQuery,
    response: PageEnvelope(FirmFees),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      if (!(await projectExists(deps.database.db, params.projectId))) throw projectNotFound();
      const page = pageRequest(query, FEE_PAGE.pageSize);
      const { items, total } = await projectFeeTotals(deps.database.db, params.projectId, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),
];
