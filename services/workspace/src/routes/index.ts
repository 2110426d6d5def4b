import { audioSliceRoutes } from './audio-slices.ts';
import { auditRoutes } from './audit.ts';
import { caseRoutes } from './cases.ts';
import { changeRoutes } from './changes.ts';
import { conversationRoutes } from './conversations.ts';
import { decisionRoutes } from './decisions.ts';
import type { Routes } from './deps.ts';
import { evidenceRoutes } from './evidence.ts';
import { exportRoutes } from './export.ts';
import { feedRoutes } from './feed.ts';
import { goalRoutes } from './goals.ts';
import { handoffRoutes } from './handoffs.ts';
import { itemEditRoutes } from './item-edits.ts';
import { itemTypeRoutes } from './item-types.ts';
import { itemRoutes } from './items.ts';
import { jobRoutes } from './jobs.ts';
import { meetingRoutes } from './meetings.ts';
import { memberRoutes } from './members.ts';
import { myMeetingRoutes } from './my-meetings.ts';
import { noteRoutes } from './notes.ts';
import { outputRoutes } from './outputs.ts';
import { panelRoutes } from './panels.ts';
import { presentationRoutes } from './presentations.ts';
import { projectRoutes } from './projects.ts';
import { recorderFileRoutes } from './recorder-files.ts';
import { templateRoutes } from './templates.ts';
import { turnRoutes } from './turns.ts';
import { unblockRoutes } from './unblock-requests.ts';
import { viewRoutes } from './views.ts';

/**
 * Every route workspace serves, as declarations (issue 15.4): the route checks run over them. Later
 * areas (cases, handoffs, conversations, evidence, jobs) add theirs here.
 */
export const ROUTES: Routes = [
  ...projectRoutes,
  ...templateRoutes,
  ...memberRoutes,
  ...itemTypeRoutes,
  ...itemRoutes,
  ...itemEditRoutes,
  ...goalRoutes,
  ...viewRoutes,
  ...changeRoutes,
  ...caseRoutes,
  ...conversationRoutes,
  ...turnRoutes,
  ...handoffRoutes,
  ...unblockRoutes,
  ...decisionRoutes,
  ...feedRoutes,
  ...exportRoutes,
  ...outputRoutes,
  ...panelRoutes,
  ...presentationRoutes,
  ...noteRoutes,
  ...meetingRoutes,
  ...myMeetingRoutes,
  ...audioSliceRoutes,
  ...evidenceRoutes,
  ...recorderFileRoutes,
  ...auditRoutes,
  ...jobRoutes,
];
