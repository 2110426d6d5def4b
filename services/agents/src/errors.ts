import { defineErrors } from '@platform/kit';

/**
 * Every error code the agents service answers beyond the kit's own (spec 3, Agents errors): its
 * status, what it means. Routes declare which of them they answer; the OpenAPI lists them per
 * status. Each area adds its codes here.
 */
export const ERRORS = defineErrors({
  agent_not_found: { status: 404, meaning: 'No such agent, or the caller has no access to it' },
  insufficient_role: { status: 403, meaning: "The caller's role on the agent does not allow this" },
  agent_header_not_allowed: {
    status: 403,
    meaning: 'X-Platform-Agent-Id is accepted only from the platform service token',
  },
  child_agent: { status: 409, meaning: 'Swarm members and coding agents have no members: they follow their top agent' },
  agent_owner: { status: 409, meaning: 'The owner is not changed or removed through members' },
  slug_taken: { status: 409, meaning: 'Another agent holds this slug' },
  ephemeral_not_allowed: { status: 422, meaning: 'Only an agent may create an ephemeral agent' },
  harness_not_found: { status: 422, meaning: 'No such harness' },
  tool_not_permitted: { status: 422, meaning: 'The harness does not permit this tool' },
  skills_not_allowed: { status: 422, meaning: 'The harness does not allow skills' },
  ephemeral_agent: {
    status: 409,
    meaning: 'Ephemeral agents are read, not saved or deleted: dismiss their swarm or let them expire',
  },
  agent_running: { status: 409, meaning: 'run_type and harness_id change only while the agent is stopped' },
  agent_expired: {
    status: 409,
    meaning: 'The agent expired: start refuses it; restart makes an expired ephemeral agent active again',
  },
  agent_archived: { status: 409, meaning: 'The agent is archived: start, restart and archive refuse it' },
  not_ephemeral: { status: 409, meaning: 'Only an ephemeral agent expires' },
  memory_not_found: { status: 404, meaning: 'No such memory on this agent' },
  service_token_not_allowed: {
    status: 403,
    meaning:
      'Pinning, demoting, dropping and purging memories needs a person with the editor role, not a service token',
  },
  unknown_memory: { status: 422, meaning: 'A memory id sent is not one of this agent’s memories' },
  window_too_long: { status: 422, meaning: 'The meeting-date window is longer than 31 days, or ends before it starts' },
  checkpoint_stale: { status: 409, meaning: 'The research checkpoint moved on: version is not the current one' },
  checkpoint_backward: { status: 409, meaning: 'The position moves backward within the same scan' },
  too_many_ids: { status: 422, meaning: 'More ids than the route takes (observer sources: 200)' },
  swarm_not_found: { status: 404, meaning: 'No such swarm, or the caller has no access to its top agent' },
  agent_header_mismatch: { status: 403, meaning: 'X-Platform-Agent-Id must name the parent agent of the call' },
  parent_not_persistent: { status: 409, meaning: 'Only a persistent agent starts coding agents' },
  parent_not_active: { status: 409, meaning: 'An expired or archived agent spawns no swarm members or coding agents' },
  harness_not_coding: { status: 422, meaning: 'A coding agent needs a harness declaring repo_scope' },
  inbox_item_not_found: { status: 422, meaning: 'inbox_item_id names no wake of this agent' },
  run_reason_invalid: {
    status: 422,
    meaning: 'A run needs a reason without inbox_item_id, and with one the reason is the wake’s',
  },
  run_times_invalid: { status: 422, meaning: 'finished_at is before started_at' },
  run_already_recorded: { status: 409, meaning: 'This wake already has its run' },
  agent_not_on_demand: { status: 409, meaning: 'Only a persistent on-demand agent takes calls and call secrets' },
  agent_not_accepting_calls: { status: 409, meaning: 'The on-demand agent is not started: start it to take calls' },
  on_demand_secret_invalid: {
    status: 403,
    meaning: 'X-Platform-On-Demand-Secret is missing, wrong or already used; the agent was not called',
  },
  gateway_session_required: { status: 401, meaning: 'An on-demand call needs the access gateway’s session' },
  broker_not_configured: { status: 503, meaning: 'No model broker is configured (AGENTS_BROKER_URL)' },
  broker_unavailable: { status: 502, meaning: 'The model broker did not answer; nothing was consumed or recorded' },
  skill_not_found: { status: 404, meaning: 'No such skill' },
  skill_version_not_found: { status: 404, meaning: 'No such version of this skill' },
  not_skill_owner: {
    status: 403,
    meaning: "Only the skill's owner or a platform admin changes a skill; the service token alone owns none",
  },
  skills_storage_unavailable: {
    status: 503,
    meaning: 'AGENTS_DOCUMENTS_URL is not set: skill archives cannot be kept',
  },
  documents_unavailable: { status: 502, meaning: 'The documents service failed or did not answer in time' },
  archive_refused: {
    status: 422,
    meaning: 'The documents service refused the archive: no such document or uploaded blob, or an unsafe filename',
  },
  audit_row_not_found: { status: 404, meaning: 'No such audit row, or it is about an agent the caller cannot read' },
  // Property-management tools (AGT-152..AGT-183).
  connector_not_configured: {
    status: 503,
    meaning: 'No property-management connector credential is configured (PM_CONNECTOR_URL, PM_CONNECTOR_TOKEN)',
  },
  connector_unavailable: { status: 502, meaning: 'The property-management connector failed or did not answer in time' },
  directory_not_configured: {
    status: 503,
    meaning: 'No resident directory is configured (DIRECTORY_URL, DIRECTORY_TOKEN)',
  },
  directory_unavailable: { status: 502, meaning: 'The resident directory failed or did not answer in time' },
  resident_not_in_move_ins: { status: 404, meaning: 'The resident is not among the property’s move-ins' },
  unit_not_logged_unmapped: { status: 409, meaning: 'The unit was not logged unmapped in the last day' },
  no_space_named: { status: 409, meaning: 'No space has the unit’s name' },
  several_spaces_named: { status: 409, meaning: 'More than one space has the unit’s name' },
  tenant_not_logged: { status: 409, meaning: 'The tenant was not logged as skipped for lack of email in the last day' },
  writeback_off: { status: 409, meaning: 'Email write-back to the property-management system is off' },
  daily_limit_reached: {
    status: 429,
    meaning:
      'The tool did its work its daily number of times for this agent (10 mappings, 30 email fills a New York day)',
  },
  issue_not_named: {
    status: 403,
    meaning: 'The tracker tools touch only the issue named in the instructions of the top of the agent’s chain',
  },
  tracker_not_configured: {
    status: 503,
    meaning: 'No issue tracker is configured (TRACKER_URL, TRACKER_EMAIL, TRACKER_API_TOKEN); nothing was changed',
  },
  tracker_unavailable: { status: 502, meaning: 'The issue tracker failed or did not answer in time' },
  tracker_issue_not_found: { status: 404, meaning: 'The tracker has no such issue' },
  checks_not_configured: {
    status: 503,
    meaning: 'A read-only check of tracker/investigate is not configured (CHECK_<KIND>_URL, CHECK_<KIND>_TOKEN)',
  },
  git_host_not_configured: { status: 503, meaning: 'No git host is configured (GITHUB_TOKEN, TRACKER_GITHUB_ORG)' },
  git_host_unavailable: { status: 502, meaning: 'The git host failed or did not answer in time' },
  pull_request_not_found: { status: 422, meaning: 'The claimed repository has no such pull request' },
  pull_request_mismatch: { status: 422, meaning: 'The pull request does not merge into the attempt’s branch' },
  coding_run_open: { status: 409, meaning: 'A coding agent of this agent is still running: one coding run at a time' },
  no_coding_attempt: { status: 409, meaning: 'No coding attempt was claimed on this issue' },
  coding_attempt_running: { status: 409, meaning: 'The coding attempt has not finished: its coding agent still runs' },
  // Daily briefs (AGT-261..AGT-282).
  brief_not_found: { status: 404, meaning: 'No brief the caller may read for that person and day, or no such brief' },
  brief_person_only: { status: 403, meaning: 'A brief is a person’s own: the caller names no person (an email)' },
  read_any_brief_required: {
    status: 403,
    meaning: 'recipient (another person), all=true and drafts=true need ReadAnyBrief (platform admins); nothing read',
  },
  invalid_brief_date: { status: 422, meaning: 'date is not a calendar day written YYYY-MM-DD' },
  not_a_brief_recipient: { status: 422, meaning: 'email is not one of BRIEF_RECIPIENTS' },
  passage_not_in_brief: {
    status: 422,
    meaning: 'The text is not a passage of one of the caller’s own stored briefs; nothing was sent to the broker',
  },
  briefs_incomplete: {
    status: 503,
    meaning:
      'The daily briefs job could not write someone’s brief (their sources or model call failed): a draft was stored',
  },
  workspace_not_configured: { status: 503, meaning: 'No workspace service is configured (AGENTS_WORKSPACE_URL)' },
  workspace_unavailable: { status: 502, meaning: 'The workspace service failed or did not answer a read in time' },
  // Weekly coaching (AGT-283..AGT-310).
  coaching_person_only: { status: 403, meaning: 'Coaching is a person’s own: sign in as yourself, not a service' },
  coaching_report_not_found: { status: 404, meaning: 'No such coaching report of the caller’s own' },
  unknown_coaching_point: { status: 422, meaning: 'The coaching report has no point with this id' },
  invalid_week: { status: 422, meaning: 'week is not a date YYYY-MM-DD' },
  not_a_coaching_recipient: { status: 422, meaning: 'email is not one of COACH_RECIPIENTS' },
  coaching_incomplete: {
    status: 503,
    meaning: 'The weekly coaching job could not write someone’s report (their meetings or model call failed)',
  },
});
export type ErrorCode = keyof typeof ERRORS;
