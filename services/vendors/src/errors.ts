import { defineErrors } from '@platform/kit';

/**
 * Every error code vendors answers beyond the kit's own (issue 15.1): its status, what it means.
 * Routes declare which of them they answer; the OpenAPI lists them per status.
 */
export const ERRORS = defineErrors({
  vendor_not_found: { status: 404, meaning: 'No such firm' },
  contact_not_found: { status: 404, meaning: 'No such contact at that firm' },
  vendor_exists: { status: 409, meaning: 'A firm with this name exists (names compared ignoring case)' },
  contact_exists: { status: 409, meaning: 'This email is already a contact at this or another firm' },
  insurance_exists: { status: 409, meaning: 'This coverage, policy number and start date are already recorded' },
  kind_description_required: { status: 422, meaning: 'A firm of kind other needs kind_description' },
  kind_description_not_allowed: { status: 422, meaning: 'kind_description is only for firms of kind other' },
  coverage_description_required: { status: 422, meaning: 'A certificate of coverage other needs coverage_description' },
  coverage_description_not_allowed: { status: 422, meaning: 'coverage_description is only for coverage other' },
  expiry_before_start: { status: 422, meaning: 'expires_on must not be before starts_on' },
  too_many_ids: { status: 422, meaning: 'The ids filter names more firms than allowed' },
  not_a_vendor_contact: { status: 403, meaning: 'The signed-in person is not an active contact of an active firm' },
});
export type ErrorCode = keyof typeof ERRORS;
