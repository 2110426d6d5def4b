import type { Github } from '../clients/github.ts';
import type { PeopleContext } from '../clients/intelligence.ts';
import type { People } from '../clients/people.ts';
import type { Slack } from '../clients/slack.ts';
import type { BeforeSend } from '../jobs/unblock-reminders.ts';

/**
 * What the internal job routes need beyond every route's deps (issue 19): the releases that turn
 * routes on and the outside systems the jobs talk to. Present only when SCHEDULER_TOKEN is set
 * (app.ts): without it no /internal/jobs/ route is registered.
 */
export interface JobSettings {
  /** SUMMARIZER_RELEASE: meeting-summaries is registered. */
  summarizer: boolean;
  /** QUESTION_MESSAGING_RELEASE: goal-checkin-chat is registered (404 until then). */
  questionMessaging: boolean;
  /** The chat system (Slack Web API). */
  slack?: Slack;
  /** A person's email (identity), to find their chat account. */
  people?: People;
  /** The intelligence service's people endpoints (person-context-refresh). */
  peopleContext?: PeopleContext;
  /** GitHub's REST API (flow-tools-sync). */
  github?: Github;
  /** FLOW_TOOLS_GITHUB_ORG. */
  flowToolsOrg?: string;
  /** Tests only: called by unblock-reminders between reading its candidates and sending. */
  beforeReminders?: BeforeSend;
}

declare module './deps.ts' {
  interface RouteDeps {
    /** Set when the scheduler token is: the internal jobs' settings and clients. */
    jobs?: JobSettings;
  }
}
