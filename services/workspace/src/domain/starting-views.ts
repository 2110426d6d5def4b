import type { Workflow } from './workflows.ts';

/** A starting view: what every new project gets, named by seed_key, created by system, publishing no events. */
export interface StartingView {
  seed_key: string;
  name: string;
  layout: 'list' | 'board';
  group_by: 'status' | 'goal' | 'assignee' | 'type' | 'none';
  sort: 'position' | 'target_date' | 'updated' | 'created' | 'time_in_status';
  sort_desc: boolean;
  filters: Record<string, unknown>;
}

const LIST: StartingView = {
  seed_key: 'list',
  name: 'List',
  layout: 'list',
  group_by: 'status',
  sort: 'position',
  sort_desc: false,
  filters: {},
};
const BOARD: StartingView = { ...LIST, seed_key: 'board', name: 'Board', layout: 'board' };
const BUGS: StartingView = { ...LIST, seed_key: 'bugs', name: 'Bugs', filters: { types: ['bug'] } };

/** Product development gets List, Board and Bugs; general (which has no bug type) List and Board. */
export const STARTING_VIEWS: Record<Workflow, readonly StartingView[]> = {
  product_development: [LIST, BOARD, BUGS],
  general: [LIST, BOARD],
};
