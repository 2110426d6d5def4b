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
    schema: obj({}),
  },
  {
    name: 'list_move_ins',
    family: 'property',
    description: "One property's incoming residents, by codes",
    schema: obj({ property_code: text }, ['property_code']),
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
      'list_move_ins',
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
