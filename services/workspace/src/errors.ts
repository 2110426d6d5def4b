import { defineErrors } from '@platform/kit';

/**
 * Every error code workspace answers beyond the kit's own (issue 15.1): its status, what it means.
 * Routes declare which of them they answer; the OpenAPI lists them per status. The spec's table
 * (spec 2, Errors) names not_a_member, stale_version, item_archived and project_archived as
 * written here; its other refusals give a status without a code.
 */
export const ERRORS = defineErrors({
  // 404: what the caller cannot see, or that is not on the path's project.
  project_not_found: { status: 404, meaning: 'No such project, or the caller cannot see it (never 403)' },
  item_not_found: {
    status: 404,
    meaning: 'No such task on this project (the legacy resolve: also a task already closed)',
  },
  goal_not_found: {
    status: [404, 422],
    meaning: 'No such goal on this project (404 by path; 422 when a task names it in goal_id)',
  },
  view_not_found: { status: 404, meaning: 'No such saved view on this project' },
  member_not_found: { status: 404, meaning: 'The principal is not a member of this project' },
  join_request_not_found: { status: 404, meaning: 'The principal has no join request on this project' },

  // 403 beyond the guard's forbidden.
  not_a_member: { status: 403, meaning: "A check-in by someone other than the goal's lead or a project owner" },

  // 409: the state of what is written forbids the write.
  project_archived: { status: 409, meaning: 'The project is archived: no task, goal, check-in, view or member write' },
  item_archived: { status: 409, meaning: 'The task is archived: every write but unarchive is refused' },
  stale_version: {
    status: 409,
    meaning: 'The version sent is not the current one; errors[0].value holds the task or view as it is now',
  },
  already_member: { status: 409, meaning: 'The principal is already a member of the project' },
  join_request_decided: { status: 409, meaning: 'The join request was already approved or declined' },

  // 422: the request's values break a rule.
  invalid_name: {
    status: 422,
    meaning: 'A project, template, starter task or data source name is not 1 to 200 characters trimmed',
  },
  invalid_title: { status: 422, meaning: 'A task, goal or decision title is not 1 to 200 characters trimmed' },
  template_not_found: { status: 422, meaning: 'template_id names no project template' },
  unoffered_type: { status: 422, meaning: "A template's starter task has a type its workflow does not offer" },
  role_or_remove: { status: 422, meaning: 'A membership change sends neither or both of role and remove: true' },
  last_owner: { status: 422, meaning: 'The change would leave the project without an owner' },
  type_not_offered: { status: 422, meaning: "The task type (or legacy kind) is not one the project's workflow offers" },
  kind_mismatch: { status: 422, meaning: 'The legacy kind sent with type is not that type’s kind' },
  status_not_offered: { status: 422, meaning: "status_id is not a status the project's workflow offers" },
  field_not_allowed: { status: 422, meaning: "A field value under a key the task's type does not have" },
  resolution_required: { status: 422, meaning: 'A bug would be closed without a resolution' },
  assignee_not_member: { status: 422, meaning: 'The assignee is not a member of the project' },
  version_required: { status: 422, meaning: 'A content change without the version that was read (data.version)' },
  version_not_found: { status: 422, meaning: 'from_version names a version the task does not have' },
  invalid_position: {
    status: 422,
    meaning: 'after_id or before_id is not another task of the project, or the two are in reverse order',
  },
  lead_not_member: { status: 422, meaning: "The goal's lead is not a member of the project" },
  too_many_active_goals: { status: 422, meaning: 'A sixth active goal (created or reopened) on the project' },
  closing_note_required: { status: 422, meaning: 'Closing a goal (achieved, missed, dropped) without a closing note' },
  closing_note_not_allowed: { status: 422, meaning: 'A closing note on a goal that stays open' },
  invalid_closing_note: { status: 422, meaning: 'The closing note is longer than 2,000 characters trimmed' },
  goal_has_checkins: { status: 422, meaning: 'A goal with check-ins cannot be deleted (close it as dropped)' },
  goal_closed: { status: 422, meaning: 'A check-in on a closed goal' },
  note_not_one_line: { status: 422, meaning: 'The check-in note has a line break' },
  invalid_note: { status: 422, meaning: 'The check-in note is not 1 to 500 characters trimmed' },
  invalid_view_name: { status: 422, meaning: 'A view name is not 1 to 60 characters trimmed' },
  view_name_taken: { status: 422, meaning: 'Another view of the project has this name, ignoring case' },
  too_many_views: { status: 422, meaning: 'A 21st view on the project' },
  invalid_filter: {
    status: 422,
    meaning: 'A saved filter has an unknown key, a value the project cannot use, or more than 50 values',
  },
  invalid_view_order: { status: 422, meaning: 'view_ids misses a view, names one twice, or names an unknown one' },
  invalid_since: { status: 422, meaning: 'since is not a whole number that fits a 64-bit counter' },

  // Decisions and data sources (issue 16); their titles and names answer invalid_title and invalid_name.
  decision_not_found: { status: 404, meaning: 'No such decision on this project' },
  decision_already_approved: { status: 409, meaning: 'The decision is already approved' },
  decision_closed: { status: 409, meaning: 'The decision is superseded or archived: it no longer changes' },
  invalid_supersedes: {
    status: 422,
    meaning: 'supersedes names no approved decision of this project other than the one approved',
  },
  invalid_detail: { status: 422, meaning: "A decision's detail is more than 20,000 characters trimmed" },
  data_source_exists: { status: 409, meaning: 'A data source of this kind and reference is already connected' },
  invalid_reference: {
    status: 422,
    meaning: "A data source's reference is not 1 to 2,000 characters without spaces trimmed",
  },

  // Cases (issue 16).
  case_not_found: { status: 404, meaning: 'No such case on this project' },
  case_closed: { status: 409, meaning: 'The case is verified or dismissed: it is not edited afterward' },
  case_move_not_allowed: {
    status: 409,
    meaning: 'The case cannot move from its state to the one asked (verified and dismissed make no move)',
  },
  amount_stage_not_allowed: {
    status: 409,
    meaning:
      "The case's state takes no amount of this stage (approved once accepted, posted once in progress, none once dismissed)",
  },
  dismissal_reason_required: { status: 422, meaning: 'Dismissing a case without a reason' },
  verification_method_required: { status: 422, meaning: 'Verifying a case without the method used' },
  transition_detail_not_allowed: {
    status: 422,
    meaning: 'A reason sent with a move other than a dismissal, or a method with one other than a verification',
  },
  invalid_case_field: {
    status: 422,
    meaning: 'A case title, subject, correction, evidence entry, reason or method is empty or too long when trimmed',
  },
  case_owner_not_member: { status: 422, meaning: 'The case owner is not a member of the project' },
  unknown_currency: { status: 422, meaning: 'The currency is not an ISO 4217 code' },
  invalid_expected_value: {
    status: 422,
    meaning: 'A recurring projection without both its monthly amount and its months, or an unsafe total',
  },
  tied_to_correction_required: {
    status: 422,
    meaning: 'A collected amount without tied_to_correction (whether it ties to the correction)',
  },
  tied_to_correction_not_allowed: { status: 422, meaning: 'tied_to_correction on an amount that is not collected' },

  // Evidence: notes, meetings, recordings, utterances (issue 19).
  evidence_not_found: {
    status: 404,
    meaning:
      'No such evidence record, or the caller cannot read it (readers: its author, members of its project, platform admins)',
  },
  not_live: { status: 409, meaning: 'Audio slice or end-live when the recording is not live' },
  not_a_meeting: {
    status: 409,
    meaning: 'Utterances, participants and speaker names belong to a meeting, thread or recording, not a note',
  },
  not_note_author: { status: 403, meaning: "Only a note's author edits or archives it; the note is unchanged" },
  end_live_refused: {
    status: 403,
    meaning: 'Only a platform admin, or the author while the record has no lines, may end a live record',
  },
  invalid_external_ref: {
    status: 422,
    meaning:
      'external_ref or device_serial does not fit the source: recorder:<serial>:<session_id> (device_serial, if sent, ' +
      'is that serial), phone:<install_id>:<uuidv7> (no device_serial); other sources use neither prefix',
  },
  invalid_evidence_text: {
    status: 422,
    meaning: 'A note body, utterance line, speaker, participant or speaker name is empty or too long when trimmed',
  },
  unknown_speaker: { status: 422, meaning: "speakers/assign names a label none of this meeting's lines has" },
  external_ref_taken: {
    status: 409,
    meaning: 'POST /v1/meetings repeated an external_ref whose record the caller cannot read; nothing written',
  },

  // Handoffs and unblock requests (issue 16).
  handoff_not_found: { status: 404, meaning: 'No such handoff on this project' },
  unblock_request_not_found: { status: 404, meaning: 'No such unblock request on this project' },
  not_sender: { status: 403, meaning: "Only the handoff's sender may edit or offer it (and cancel it, as may owners)" },
  not_receiver: { status: 403, meaning: "Only the handoff's named receiver may accept it or ask for changes" },
  not_recipient: {
    status: 403,
    meaning: "Only the request's recipient may answer it (the asker or recipient snooze it)",
  },
  not_asker: { status: 403, meaning: "Only the request's asker may confirm, send back or withdraw it" },
  stale_revision: {
    status: 409,
    meaning: 'The revision named is not the current one; errors[0].value holds the handoff as it is now',
  },
  invalid_handoff_transition: {
    status: 409,
    meaning: "The handoff's state does not allow the move (e.g. cancelling once accepted, accepting a draft)",
  },
  invalid_unblock_transition: {
    status: 409,
    meaning: "The request's state does not allow the move (e.g. confirming an open request)",
  },
  invalid_handoff_text: { status: 422, meaning: 'A handoff text is empty after trimming or longer than its limit' },
  receiver_not_member: { status: 422, meaning: 'The handoff receiver is not a member of the project' },
  receiver_is_sender: { status: 422, meaning: 'A handoff names its own sender as receiver' },
  linked_case_not_found: { status: 422, meaning: 'case_id names no case of this project' },
  invalid_unblock_text: { status: 422, meaning: 'An unblock request text is empty after trimming or too long' },
  recipient_not_member: { status: 422, meaning: 'The unblock request recipient is not a member of the project' },
  recipient_is_asker: { status: 422, meaning: 'An unblock request names its own asker as recipient' },
  agent_source_refused: { status: 422, meaning: 'An unblock request with source agent; nothing is written' },
  waiting_record_not_found: { status: 422, meaning: 'waiting_record names no task, goal or handoff of this project' },
  invalid_options: { status: 422, meaning: 'A choice without 2 to 10 distinct options, or options on another kind' },
  invalid_answer: { status: 422, meaning: 'The answer is empty, too long, or does not fit its kind' },
  invalid_snooze: { status: 422, meaning: 'A snooze without until, or until not later than now' },

  // Conversations (issue 16).
  conversation_not_found: {
    status: 404,
    meaning:
      'No such conversation, or the caller cannot read it (unfiled: only its starter; filed: its project readers)',
  },
  turn_not_found: { status: 404, meaning: 'The conversation has no turn with this seq' },
  session_not_found: { status: 404, meaning: 'No such agent session, or the caller cannot change its conversation' },
  redaction_not_found: { status: 404, meaning: 'No such redaction request, or the caller may not approve it' },
  invalid_approval_key: {
    status: 403,
    meaning: 'data.approval_key is not the redaction approval key',
  },
  conversation_archived: {
    status: 409,
    meaning: 'The conversation is archived: it stays readable, but takes no new turn or agent session',
  },
  session_ended: { status: 409, meaning: 'A heartbeat on an agent session that has ended' },
  turn_redacted: { status: 409, meaning: "The turn's text is already destroyed" },
  redaction_decided: { status: 409, meaning: 'The redaction request was already approved' },
  invalid_conversation_title: { status: 422, meaning: 'A conversation title is not 1 to 200 characters trimmed' },
  extra_too_large: { status: 422, meaning: "A turn's extra is more than 32 KiB of JSON" },
  invalid_cursor: { status: 422, meaning: 'The after cursor is not one this service issued' },
  invalid_window: { status: 422, meaning: 'The usage window does not have from before to' },
  redaction_approval_unconfigured: {
    status: 503,
    meaning: 'REDACTION_APPROVAL_KEY is unset: no redaction can be approved; nothing is destroyed',
  },

  // Saved outputs and the objections and related panels (issue 16).
  output_not_found: {
    status: 404,
    meaning: 'No such saved output (or version of its slug), or the caller cannot read its project',
  },
  upload_not_found: { status: 404, meaning: 'No such output upload of the caller on this conversation' },
  upload_finalized: { status: 409, meaning: 'The output upload was already finalized' },
  upload_expired: { status: 409, meaning: 'The output upload expired before it was finalized' },
  inline_body_too_large: {
    status: 413,
    meaning: 'An inline output body over 256 KiB of UTF-8 (use the upload path); nothing written',
  },
  upload_too_large: { status: 413, meaning: 'An uploaded output larger than finalize reads (32 MiB); nothing written' },
  invalid_slug: {
    status: 422,
    meaning: 'A slug is not 1 to 120 lowercase letters, digits, dots, dashes or underscores',
  },
  invalid_output_title: { status: 422, meaning: 'An output title is longer than 200 characters trimmed' },
  invalid_content_type: { status: 422, meaning: 'content_type is not a media type' },
  invalid_sha256: { status: 422, meaning: 'sha256 is not 64 lowercase hex characters' },
  invalid_filename: {
    status: 422,
    meaning: 'The documents service refused the upload filename (unsafe or no extension)',
  },
  project_id_required: {
    status: 422,
    meaning: 'An output of an unfiled conversation without data.project_id; nothing written',
  },
  project_mismatch: { status: 422, meaning: "A filed conversation's output names another project" },
  credential_in_output: {
    status: 422,
    meaning: 'The output holds a credential (errors[0].value names the kind and line); nothing written',
  },
  tool_log_in_output: {
    status: 422,
    meaning: 'The output holds a tool-call log (errors[0].value names the marker and line); nothing written',
  },
  sha256_mismatch: { status: 422, meaning: 'The uploaded bytes do not have the sha256 sent; nothing committed' },
  upload_not_received: { status: 422, meaning: 'Finalize before any bytes were uploaded to the upload URL' },
  invalid_plan: { status: 422, meaning: 'The objections panel’s plan is not 1 to 20,000 characters trimmed' },
  claim_not_raised: {
    status: 422,
    meaning: 'Feedback on a claim the objections panel did not raise in this conversation',
  },
  not_own_message: { status: 422, meaning: "The related panel on a turn that is not the caller's own message" },
  documents_not_configured: {
    status: 503,
    meaning:
      'DOCUMENTS_URL is unset: the output upload path is unavailable (inline saves work), and so are presentation renders and files',
  },
  documents_unavailable: {
    status: 503,
    meaning: 'The documents service or blob storage did not complete the upload (or answer a presentation file)',
  },

  // Customer presentations (issue 16).
  presentation_not_found: { status: 404, meaning: 'No such presentation on this project' },
  presentation_revision_not_found: { status: 404, meaning: 'The presentation has no revision with that number' },
  invalid_presentation_title: { status: 422, meaning: 'A presentation title is not 1 to 200 characters trimmed' },
  invalid_outline: {
    status: 422,
    meaning: 'An outline is not 1 to 20 slides, each a 1 to 200 character title and at most 4,000 of notes',
  },
  invalid_sources: {
    status: 422,
    meaning: 'More than 50 sources, or one without a 1 to 200 character title and a 1 to 2,000 character reference',
  },
  invalid_slides: {
    status: 422,
    meaning: 'An edit is not 1 to 20 slides, each a 1 to 200 character title and a body of at most 4,000',
  },
  invalid_recipients: { status: 422, meaning: 'A share does not name 1 to 50 email addresses' },
  invalid_share_message: { status: 422, meaning: "A share's message is longer than 2,000 characters" },
  presentation_render_not_failed: {
    status: 409,
    meaning: "Resume on a presentation whose latest revision's render did not fail (or that has no revision)",
  },
  presentation_revision_not_rendered: {
    status: 409,
    meaning: 'A file or share of a revision whose render failed, or of a presentation with no rendered revision',
  },
  model_broker_not_configured: {
    status: 503,
    meaning: 'BROKER_URL is unset: building a presentation (model-written slides) is unavailable; nothing written',
  },
  communications_not_configured: {
    status: 503,
    meaning: 'COMMUNICATIONS_URL is unset: sharing a presentation is refused; nothing written',
  },
  communications_unavailable: {
    status: 503,
    meaning: 'The communications service did not take the share (down, failing or off its contract); nothing written',
  },

  // Audio slices and the recording flow (issue 19).
  transcription_not_configured: {
    status: 503,
    meaning:
      'BROKER_URL or a transcription model (TRANSCRIPTION_MODEL, TRANSCRIPTION_FAST_MODEL) is unset; nothing stored',
  },
  transcription_failed: {
    status: 502,
    meaning:
      'The model broker did not transcribe the slice (down, refused or failed); nothing stored: resend the index',
  },
  not_recording_author: { status: 403, meaning: "Only the recording's author posts its audio slices; nothing stored" },
  slice_in_progress: {
    status: 409,
    meaning: 'The same slice index is still being transcribed for an earlier request: resend it shortly',
  },

  // The recorder partner and files through the documents service (issue 19).
  recorder_not_configured: {
    status: 503,
    meaning:
      'RECORDER_URL or RECORDER_PARTNER_SECRET is unset: recorder tokens and devices are refused; nothing written',
  },
  recorder_unavailable: {
    status: 502,
    meaning: 'The recorder partner did not answer, failed or refused the partner credential; nothing written',
  },
  device_taken: { status: 409, meaning: 'The recorder serial is registered to another person' },
  invalid_serial: {
    status: 422,
    meaning: 'A recorder serial is not 1 to 64 letters, digits, - or _ (starting with a letter or digit)',
  },
  invalid_meeting_range: {
    status: 422,
    meaning: 'GET /v1/me/meetings: from is after to, or the range is longer than 62 days',
  },
  invalid_adoption_window: {
    status: 422,
    meaning: 'since is not before until, or the adoption window is longer than 366 days',
  },
  file_upload_not_found: { status: 404, meaning: 'No such file upload (POST /v1/files/upload-url answers its id)' },
  not_uploader: {
    status: 403,
    meaning: 'Only the principal who asked for the upload URL renews it or registers its file; nothing written',
  },
  upload_registered: {
    status: 409,
    meaning: 'A document is already recorded against this upload: no new write URL is given',
  },
  upload_blocks_expired: {
    status: 409,
    meaning:
      'The upload is more than seven days old: storage has dropped its uncommitted blocks, so it takes no new URL',
  },

  // Internal jobs (issue 19).
  summaries_failed: {
    status: 502,
    meaning: 'meeting-summaries: every summary the run tried failed at the model broker; each is tried again next run',
  },
  flow_tools_not_configured: {
    status: 503,
    meaning: 'flow-tools-sync: no organization (FLOW_TOOLS_GITHUB_ORG) or no GitHub client is configured; nothing read',
  },
  code_host_unavailable: {
    status: 502,
    meaning: "flow-tools-sync: GitHub refused or failed listing the organization's repositories; nothing recorded",
  },
});
export type ErrorCode = keyof typeof ERRORS;
