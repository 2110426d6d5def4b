/**
 * The harness and tool registry (spec 3: GET /v1/harnesses, GET /v1/tools). The first harness is
 * the one `npm start` runs as a child process (src/harness/); its always-granted tools are
 * remember and recall (AGT-045). A coding harness declares the repo_scope feature (AGT-135).
 */
export interface Tool {
  name: string;
  family: string;
  description: string;
  /** JSON Schema of the tool's arguments, as the harness offers it to the model. */
  schema: Record<string, unknown>;
}

export interface Harness {
  id: string;
  description: string;
  allows_skills: boolean;
  /** Tools an agent on this harness may be granted (always-granted ones included). */
  tools: readonly string[];
  features: readonly string[];
  /** Tools every agent on this harness has, never stored in its grants. */
  always_granted: readonly string[];
}

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const text = { type: 'string' };
const sources = {
  type: 'array',
  description: 'What the message relies on: evidence or insight ids',
  items: obj({ kind: { type: 'string', enum: ['evidence', 'insight'] }, id: { type: 'string', format: 'uuid' } }, [
    'kind',
    'id',
  ]),
};

export const TOOLS: readonly Tool[] = [
  {
    name: 'remember',
    family: 'memory',
    description: 'Store a memory for later cycles',
    schema: obj({ content: text }, ['content']),
  },
  { name: 'recall', family: 'memory', description: 'Search stored memories', schema: obj({ q: text }, ['q']) },
  {
    name: 'send_email',
    family: 'communication',
    description: 'Send an email from the agent mailbox',
    schema: obj({ to: text, subject: text, body: text, sources }, ['to', 'body']),
  },
  {
    name: 'send_sms',
    family: 'communication',
    description: 'Send a text message',
    schema: obj({ to: text, body: text, sources }, ['to', 'body']),
  },
  {
    name: 'send_announcement',
    family: 'communication',
    description: 'Post an announcement to a workspace conversation',
    schema: obj({ body: text, sources }, ['body']),
  },
  {
    name: 'search_workspace',
    family: 'workspace',
    description: 'Search evidence and insights the owner may read',
    schema: obj({ q: text }, ['q']),
  },
  {
    name: 'git_commit',
    family: 'code',
    description: 'Commit changes in the repository the agent works in',
    schema: obj({ message: text, sources }, ['message']),
  },
  {
    name: 'open_pull_request',
    family: 'code',
    description: 'Open a pull request for the committed branch',
    schema: obj({ title: text, body: text, sources }, ['title']),
  },
  {
    name: 'read_tracker_issue',
    family: 'tracker',
    description: "Read the issue named in the parent's instructions",
    schema: obj({ issue_key: text }),
  },
  {
    name: 'investigate_tracker_issue',
    family: 'tracker',
    description:
      'Read the issue and get a comment from the read-only identity, linkage, lease, dashboard and door-access checks',
    schema: obj({ issue_key: text }),
  },
  {
    name: 'post_tracker_recommendation',
    family: 'tracker',
    description: 'Post one recommendation on the issue (a second call returns the first)',
    schema: obj({ issue_key: text, text }, ['issue_key', 'text']),
  },
  {
    name: 'claim_tracker_issue',
    family: 'tracker',
    description: 'Start one coding agent on the issue in deepsky or platform',
    schema: obj({ issue_key: text, repository: { type: 'string', enum: ['deepsky', 'platform'] } }, [
      'issue_key',
      'repository',
    ]),
  },
  {
    name: 'report_tracker_attempt',
    family: 'tracker',
    description: 'Comment the pull request of the finished coding attempt on the issue',
    schema: obj({ issue_key: text, pull_request: { type: 'integer', minimum: 1 } }, ['issue_key', 'pull_request']),
  },
  {
    name: 'list_move_ins',
    family: 'property',
    description: "One property's incoming residents, by codes",
    schema: obj({ property_code: text }, ['property_code']),
  },
  {
    name: 'check_resident_access',
    family: 'property',
    description: "One incoming resident's read-only access facts, by codes",
    schema: obj({ property_code: text, resident_code: text }, ['property_code', 'resident_code']),
  },
  {
    name: 'list_unit_mapping_gaps',
    family: 'property',
    description: 'Units the connector could not map in the last day, with candidate spaces',
    schema: obj({ property_code: text }, ['property_code']),
  },
  {
    name: 'apply_unit_mapping',
    family: 'property',
    description: 'Map a unit to the one space of its name and resync (10 a day)',
    schema: obj({ property_code: text, unit_code: text }, ['property_code', 'unit_code']),
  },
  {
    name: 'list_missing_pms_emails',
    family: 'property',
    description: 'Tenants skipped in the last day for lack of email, by codes',
    schema: obj({ property_code: text }, ['property_code']),
  },
  {
    name: 'fill_pms_emails_from_directory',
    family: 'property',
    description: "Fill a tenant's missing emails from the same-named directory residents (30 a day)",
    schema: obj({ property_code: text, tenant_code: text }, ['property_code', 'tenant_code']),
  },
];

export const HARNESSES: readonly Harness[] = [
  {
    id: 'platform',
    description: 'The platform harness: drains the inbox and makes one model call per wake through the broker',
    allows_skills: true,
    tools: [
      'remember',
      'recall',
      'send_email',
      'send_sms',
      'send_announcement',
      'search_workspace',
      'read_tracker_issue',
      'investigate_tracker_issue',
      'post_tracker_recommendation',
      'claim_tracker_issue',
      'report_tracker_attempt',
      'list_move_ins',
      'check_resident_access',
      'list_unit_mapping_gaps',
      'apply_unit_mapping',
      'list_missing_pms_emails',
      'fill_pms_emails_from_directory',
    ],
    features: [],
    always_granted: ['remember', 'recall'],
  },
  {
    id: 'coder',
    description: 'A coding harness working in one repository',
    allows_skills: false,
    tools: ['git_commit', 'open_pull_request', 'read_tracker_issue'],
    features: ['repo_scope'],
    always_granted: [],
  },
  {
    id: 'messenger',
    description: 'A small harness that only sends messages, without skills',
    allows_skills: false,
    tools: ['send_email', 'send_sms'],
    features: [],
    always_granted: [],
  },
];

/** The harness new agents get when none is named: the first in the registry. */
export const DEFAULT_HARNESS = HARNESSES[0] as Harness;

export const harnessById = (id: string): Harness | undefined => HARNESSES.find((h) => h.id === id);

/** The first harness declaring repo_scope: a coding agent's default (AGT-136). */
export const firstCodingHarness = (): Harness | undefined => HARNESSES.find((h) => h.features.includes('repo_scope'));
