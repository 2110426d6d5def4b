import type { Policy, Rule } from './types.ts';

/** A Read* action: anyone the access gateway admits for the construction application (CON-182). */
const read: Rule = { anyPerson: true, apps: ['internal'] };
/** Every other action: only people listed in CONSTRUCTION_EDITORS (CON-183). */
const edit: Rule = {
  listed: 'editors',
  apps: ['internal'],
  refusal: 'Only people listed in CONSTRUCTION_EDITORS may change construction records',
};

/**
 * Construction's twenty-eight actions (spec 3, Construction authentication; CON-181). Actions
 * starting with Read are open to anyone the gateway admits; all others need the caller in
 * CONSTRUCTION_EDITORS. Grants play no part, so a Super Admin grant counts for nothing here. A
 * person's platform access token (spec 2) counts as a gateway token for this application.
 */
export const construction = {
  service: 'construction',
  superAdmin: 'none',
  apps: {
    internal: {
      audience: 'CONSTRUCTION_ACCESS_AUD',
      elsewhere: 'This token is for another application',
    },
  },
  platformToken: { app: 'internal', elsewhere: 'This token is for another application' },
  lists: { editors: 'CONSTRUCTION_EDITORS' },
  actions: {
    CreateProject: edit,
    ReadProject: read,
    PlanProject: edit,
    AdvanceStage: edit,
    RecordProgress: edit,
    OpenDecision: edit,
    RecordDecision: edit,
    ReadDecisions: read,
    RequestApproval: edit,
    RespondToApproval: edit,
    ReadApprovals: read,
    RaiseRisk: edit,
    ManageRisk: edit,
    ReadRisks: read,
    ManageVendors: edit,
    ReadVendors: read,
    ManageTasks: edit,
    ReadTasks: read,
    ManageDocuments: edit,
    PublishDocument: edit,
    ReadDocuments: read,
    ManageVariations: edit,
    ReadVariations: read,
    ManageBudget: edit,
    ReadBudget: read,
    ReadReports: read,
    AttachDocument: edit,
    ReadAttachments: read,
  },
} as const satisfies Policy;
