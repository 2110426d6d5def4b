import { defineErrors } from '@platform/kit';

/**
 * Every error code identity's /v1 routes answer beyond the kit's own (issue 15.1): its status,
 * what it means. Routes declare which of them they answer; the OpenAPI lists them per status.
 * (The OAuth endpoints answer OAuth's own errors, outside this catalogue.)
 */
export const ERRORS = defineErrors({
  not_found: { status: 404, meaning: 'No such person, grant or principal' },
  email_taken: { status: 409, meaning: 'A person with this email already exists' },
  grant_exists: { status: 409, meaning: 'The person already holds this role at this scope' },
  unknown_role: { status: 422, meaning: 'No role of that name in any policy' },
  invalid_scope: { status: 422, meaning: 'The scope does not suit the role (super_admin is global only)' },
  invalid_lookup: { status: 422, meaning: 'Send exactly one of id or email' },
  invalid_email: { status: 422, meaning: 'Not an email address' },
  unknown_audience: { status: 422, meaning: 'Not an application audience of this gateway' },
  no_email: { status: 503, meaning: 'The person has no email to put in a gateway token' },
});
export type ErrorCode = keyof typeof ERRORS;
