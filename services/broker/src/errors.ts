import { defineErrors } from '@platform/kit';

/**
 * Every error code the broker answers beyond the kit's own (issue 15.1): its status and what it
 * means. Routes declare which of them they answer; the OpenAPI lists them per status. Spec 3
 * names conditions, not codes ("Errors", Broker); `spec` gives its words where a code stands for
 * one. (The token exchange, POST /v1/oauth/token, answers OAuth's own errors, outside this
 * catalogue.)
 */
export const ERRORS = defineErrors({
  over_budget: {
    status: 402,
    meaning: "This month's spend has reached the caller's budget; no upstream call was made",
    spec: 'over budget',
  },
  session_required: {
    status: 403,
    meaning: "Credentials are managed only with the person's own sign-in, not a credential token or the service token",
  },
  person_not_found: { status: 404, meaning: 'No such identity in the roster' },
  credential_not_found: { status: 404, meaning: "No such credential of the caller's (another person's is unknown)" },
  credential_disabled: { status: 409, meaning: 'The credential is disabled: enable it first' },
  credential_expired: { status: 409, meaning: 'The credential has expired and issues no tokens' },
  unknown_provider: { status: 422, meaning: 'No such provider in the catalog (or it does not speak that API)' },
  unknown_model: { status: 422, meaning: 'No such model in the catalog, or not offered by that provider' },
  ambiguous_provider: {
    status: 422,
    meaning: 'Several providers offer the model and none is named',
    spec: 'several providers offer the model with none named',
  },
  bad_period: { status: 422, meaning: 'from or to is not a YYYY-MM-DD day, or from is after to', spec: 'bad period' },
  bad_limit: { status: 422, meaning: 'A budget limit is not an integer of cents in range', spec: 'bad limit' },
  bad_tokens: { status: 422, meaning: 'cache_read_tokens exceeds input_tokens, of which it is a part' },
  bad_occurred_at: { status: 422, meaning: 'occurred_at is more than five minutes ahead of the server' },
  unknown_actor: { status: 422, meaning: 'The actor_fid reported for is not in the roster' },
  bad_creator: { status: 422, meaning: 'A person has no creator, and nothing is its own creator' },
  invalid_name: { status: 422, meaning: 'A credential name is 1 to 100 characters after trimming' },
  invalid_expires_at: { status: 422, meaning: 'expires_at must be a time in the future' },
  duplicate_rule_id: { status: 422, meaning: 'A routing rule id appears twice in the list' },
  target_more_expensive: { status: 422, meaning: "A rule's target costs more than the model it replaces" },
  upstream_failed: { status: 502, meaning: 'The provider could not be reached or answered an error' },
  provider_unavailable: {
    status: 503,
    meaning: 'The broker holds no key for the provider',
    spec: 'no credential for the provider',
  },
  token_signing_unavailable: {
    status: 503,
    meaning: 'Token signing is not configured (BROKER_SIGNING_KEY is unset)',
    spec: 'token signing not configured',
  },
});
export type ErrorCode = keyof typeof ERRORS;
