import type { Policy, Rule } from './types.ts';

/**
 * Staff (spec 3, Agents authentication): any person signed in at the access gateway for the agents
 * application, with identity's platform token, or with a broker credential they minted; and
 * platform services with the shared service token (the harness, communications, the scheduler).
 * What a caller may do on one agent then follows their role on it (services/agents/src/domain/access.ts).
 */
const staff: Rule = { anyPerson: true, anyService: true, apps: ['internal'] };

/**
 * The agents service's actions: the policy gates the action itself (staff manage, start and run:
 * AGT-330) before the agent's roles are asked. Grants play no part but a platform admin's, and a
 * verified Super Admin's above it (docs/decisions.md, "Super Admin across services").
 */
export const agents = {
  service: 'agents',
  superAdmin: 'all',
  apps: {
    internal: {
      audience: 'AGENTS_ACCESS_AUD',
      elsewhere: 'This token is for another application',
    },
  },
  platformToken: { app: 'internal', elsewhere: 'This token is for another application' },
  actions: {
    /** Read agents, their members, runs, logs, memories, sources; skills, harnesses, tools; audit. */
    ReadAgents: staff,
    /** Create, save, delete agents; members; memories; skills. */
    ManageAgents: staff,
    /** Start, stop, restart, expire, archive; swarms and coding agents. */
    StartAgents: staff,
    /** Wake, run, call secrets, and the harness's own routes (inbox, runs, logs, checkpoints). */
    RunAgents: staff,
    /** Read every agent without a role on it; change one only through a membership (AGT-100, AGT-328, AGT-329). */
    ReadAllAgents: {
      roles: ['platform_admin'],
      notViaServiceToken: true,
      refusal: 'Only a platform admin reads every agent',
    },
    /** An on-demand call: the access gateway's session plus the agent's one-time secret (the route checks the secret). */
    CallOnDemand: { anyPerson: true, apps: ['internal'] },
    /**
     * The internal jobs (/internal/jobs/*: daily briefs, weekly coaching): only the platform's
     * scheduler, with X-Platform-Scheduler-Token (DECISIONS item 8); no person, admins included.
     */
    RunJobs: { services: ['service:scheduler'] },
    /**
     * One's own weekly coaching (GET /v1/me/coaching, its setting and feedback): a person signed in as
     * themselves; never through the shared service token, which could name anyone (AGT-294).
     */
    UseCoaching: { anyPerson: true, apps: ['internal'], notViaServiceToken: true },
    /**
     * One's own daily brief (GET /v1/briefs without recipient or all, feedback, speech): any person,
     * including a platform service naming the person it acts for.
     */
    UseBriefs: { anyPerson: true, apps: ['internal'] },
    /** Store pasted text as a person's brief (POST /v1/briefs): platform admins, never via the service token. */
    WriteBrief: {
      roles: ['platform_admin'],
      apps: ['internal'],
      notViaServiceToken: true,
      refusal: 'Only a platform admin stores a brief',
    },
    /** Read others' published briefs (recipient, all=true) and drafts (drafts=true): platform admins. */
    ReadAnyBrief: {
      roles: ['platform_admin'],
      apps: ['internal'],
      notViaServiceToken: true,
      refusal: 'Only a platform admin reads other people’s briefs and drafts',
    },
  },
} as const satisfies Policy;
