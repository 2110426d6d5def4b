import { authConfig, commonConfig, flag, int, loadConfig, oneOf, optionalStr, port, str, url } from '@platform/kit';

export const DEFAULT_PORT = 4104;

/** Workspace's configuration: the common and authentication settings; fails fast naming a bad variable. */
export const workspaceConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_WORKSPACE: port(DEFAULT_PORT),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
    /** The intelligence service (conversation suggestions); unset: they answer degraded: true. */
    INTELLIGENCE_URL: url(['http:', 'https:']),
    /** How long a call to the intelligence service may take before its answer is degraded. */
    INTELLIGENCE_TIMEOUT_MS: int(2_000, 50, 60_000),
    /** The key a redaction approval must present (data.approval_key); unset: approvals are 503. */
    REDACTION_APPROVAL_KEY: optionalStr(),
    /** GitHub's REST API (the code-host workers, flow-tools-sync; tests: a local fake). */
    GITHUB_API_URL: str('https://api.github.com'),
    /** A GitHub token sent as a bearer token; unset: public repositories only. */
    GITHUB_TOKEN: optionalStr(),
    /** The pull-request worker's allowlist: owner/repo or owner/repo:contributes, comma-separated; empty: idle. */
    CODE_HOST_PULLS_REPOSITORIES: optionalStr(),
    /** The issue worker's allowlist, written the same way; empty: idle. */
    CODE_HOST_ISSUES_REPOSITORIES: optionalStr(),
    /** Minutes between two passes of a code-host worker. */
    CODE_HOST_INTERVAL_MINUTES: int(15, 1, 1440),
    /** The Gmail API (the mailbox importer; tests: a local fake). */
    GMAIL_API_URL: str('https://gmail.googleapis.com'),
    /** An OAuth access token for the mailbox (bearer); unset: the mailbox importer does not run. */
    GMAIL_ACCESS_TOKEN: optionalStr(),
    /** The mailbox read: `me` (the token's own) or an address. */
    GMAIL_USER: str('me'),
    /** How many days back the mailbox importer's first pass reads. */
    MAIL_IMPORT_WINDOW_DAYS: int(60, 1, 3650),
    /** -contributes: imported messages feed company knowledge (off: stored with knowledge off). */
    MAIL_IMPORT_CONTRIBUTES: flag(false),
    /** Privacy topics (words or phrases, comma-separated): a message naming one is not stored. Never committed. */
    MAIL_PRIVACY_TOPICS: optionalStr(),
    /** Blocked senders (addresses or @domains, comma-separated): their messages are not stored. Never committed. */
    MAIL_BLOCK_LIST: optionalStr(),
    /** The Google Drive API (the file-drive importer; tests: a local fake). */
    DRIVE_API_URL: str('https://www.googleapis.com'),
    /** An OAuth access token for the drive (bearer); unset: the file-drive importer does not run. */
    DRIVE_ACCESS_TOKEN: optionalStr(),
    /** How many days back the file-drive importer's first pass reads. */
    DRIVE_IMPORT_WINDOW_DAYS: int(60, 1, 3650),
    /** -contributes: imported files feed company knowledge (off: stored with knowledge off). */
    DRIVE_IMPORT_CONTRIBUTES: flag(false),
    /** Privacy topics for files (names and text), comma-separated. Never committed. */
    DRIVE_PRIVACY_TOPICS: optionalStr(),
    /** Blocked files (file ids, exact names, owners' addresses or @domains), comma-separated. Never committed. */
    DRIVE_BLOCK_LIST: optionalStr(),
    /** The model broker (its relay writes digest lines and pack summaries); unset: they answer degraded. */
    BROKER_URL: url(['http:', 'https:']),
    /** The documents service (the output upload path registers files there); unset: that path answers 503. */
    DOCUMENTS_URL: url(['http:', 'https:']),
    /** The documents storage account output uploads go to (a name in documents' catalog). */
    OUTPUTS_STORAGE_ACCOUNT: str('local'),
    /** The communications service (sharing a presentation goes through it); unset: a share answers 503. */
    COMMUNICATIONS_URL: url(['http:', 'https:']),
    /** The platform scheduler's token (X-Platform-Scheduler-Token); unset: no /internal/jobs/ route is registered (404). */
    SCHEDULER_TOKEN: optionalStr(),
    /** The summarizer release: POST /internal/jobs/meeting-summaries is registered only when on. */
    SUMMARIZER_RELEASE: flag(false),
    /** The question-messaging release: POST /internal/jobs/goal-checkin-chat answers 404 until on. */
    QUESTION_MESSAGING_RELEASE: flag(false),
    /** Slack's bot token (xoxb-...): the chat system's Web API; unset: chat messages are not sent. */
    SLACK_BOT_TOKEN: optionalStr(),
    /** Slack's Web API base address (tests: a local fake). */
    SLACK_API_URL: str('https://slack.com/api'),
    /** Chat sync: the Slack channels it reads (names or ids, comma-separated); empty: the worker does not run. */
    CHAT_SYNC_CHANNELS: optionalStr(),
    /** Chat sync discovery: joined (channels the bot was invited to) or public (it also joins allowlisted public channels). */
    CHAT_SYNC_DISCOVERY: oneOf(['joined', 'public'] as const, 'joined'),
    /** Chat sync: channels joined per run at most (public discovery). */
    CHAT_SYNC_JOIN_CAP: int(5, 0, 1_000),
    /** Chat sync: messages fetched per run at most, over all channels. */
    CHAT_SYNC_BUDGET: int(1_000, 1, 1_000_000),
    /** Chat sync: only messages of the last this many days are read. */
    CHAT_SYNC_WINDOW_DAYS: int(30, 1, 3_650),
    /** Chat sync: time between runs. */
    CHAT_SYNC_INTERVAL_MS: int(900_000, 10_000, 86_400_000),
    /** Question messaging: time between passes (posting today's messages, reading replies). */
    QUESTION_MESSAGING_INTERVAL_MS: int(300_000, 10_000, 86_400_000),
    /** Question messaging: the UTC hour from which each day's direct messages are posted. */
    QUESTION_MESSAGING_POST_HOUR_UTC: int(13, 0, 23),
    /** The identity service (a person's email, to find their chat account); unset: question messaging does not run. */
    IDENTITY_URL: url(['http:', 'https:']),
    /** The container image of the meeting bot; unset: no meeting-bot Jobs are run. */
    MEETING_BOT_IMAGE: optionalStr(),
    /** The Kubernetes namespace meeting-bot Jobs run in (the cluster from the in-cluster or default kubeconfig). */
    MEETING_BOT_NAMESPACE: str('default'),
    /** Meeting bots: time between reconciler passes (a watch on the Jobs wakes one sooner); at most 25 s. */
    MEETING_BOT_RECONCILE_MS: int(10_000, 1_000, 25_000),
    /** The workspace as the meeting bot reaches it from inside the cluster (passed as WORKSPACE_URL). */
    MEETING_BOT_WORKSPACE_URL: url(['http:', 'https:']),
    /** The GitHub organization flow-tools-sync reads every repository of; unset: the job answers 503. */
    FLOW_TOOLS_GITHUB_ORG: optionalStr(),
    /** The recorder partner's API (user tokens, devices); unset: the recorder routes answer 503. */
    RECORDER_URL: url(['http:', 'https:']),
    /** The partner credential the recorder API takes as a bearer token; never returned; unset: recorder routes 503. */
    RECORDER_PARTNER_SECRET: optionalStr(),
    /**
     * Transcription (audio slices, recording files) through BROKER_URL's transcription relay: the
     * generic model (and its broker provider); unset with no fast model: audio slices answer 503.
     */
    TRANSCRIPTION_MODEL: optionalStr(),
    TRANSCRIPTION_PROVIDER: optionalStr(),
    /** The fast speech provider with speaker numbers (a diarizing model of the broker's catalog): used when set. */
    TRANSCRIPTION_FAST_MODEL: optionalStr(),
    TRANSCRIPTION_FAST_PROVIDER: optionalStr(),
    /** One transcription call through the broker, connection to last byte. */
    TRANSCRIPTION_TIMEOUT_MS: int(120_000, 1_000, 900_000),
  });

export type WorkspaceConfig = ReturnType<typeof workspaceConfig>;
