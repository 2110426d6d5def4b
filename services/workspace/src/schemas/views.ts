import { type Static, Type } from '@sinclair/typebox';
import { FILTER_LIST_MAX, GROUP_BYS, LAYOUTS, NAME_MAX, SORTS } from '../domain/views.ts';
import { Timestamp, Uuid } from './common.ts';
import { CategoryName, TaskTypeName } from './tasks.ts';

export const LayoutName = Type.Union(
  LAYOUTS.map((l) => Type.Literal(l)),
  { description: 'list or board' },
);
export const GroupByName = Type.Union(
  GROUP_BYS.map((g) => Type.Literal(g)),
  { description: 'Default status; boards ignore it (their columns are always statuses) but it reads as saved' },
);
export const SortName = Type.Union(
  SORTS.map((s) => Type.Literal(s)),
  { description: 'Default position' },
);

const list = <T extends Parameters<typeof Type.Array>[0]>(item: T, description: string) =>
  Type.Optional(Type.Array(item, { maxItems: FILTER_LIST_MAX, description }));

/**
 * Filters as a save takes them. The keys and their shapes are checked here; whether a value is
 * usable by this project (an offered type or status, a goal on the project) by the command.
 */
export const FiltersInput = Type.Object(
  {
    types: list(TaskTypeName, 'Task types the project offers'),
    categories: list(CategoryName, 'The six status categories'),
    status_ids: list(Type.String({ maxLength: 100 }), 'Statuses the project offers'),
    assignees: list(Type.String({ maxLength: 200 }), 'Principal ids, or none (unassigned); never me'),
    goal_ids: list(Type.String({ maxLength: 100 }), 'Goals on the project, or none (no goal)'),
    due: Type.Optional(Type.Literal('overdue', { description: 'overdue: open tasks past their target date' })),
    archived: Type.Optional(
      Type.Literal(true, { description: 'true shows only archived tasks; absent shows only unarchived tasks' }),
    ),
  },
  {
    additionalProperties: false,
    description: `Strict: unknown keys, unusable values and lists of more than ${FILTER_LIST_MAX} values are 422; repeated values are dropped; an empty list filters nothing`,
  },
);

/** Filters as reads show them: values no longer usable are left out. */
export const Filters = Type.Object(
  {
    types: Type.Optional(Type.Array(TaskTypeName)),
    categories: Type.Optional(Type.Array(CategoryName)),
    status_ids: Type.Optional(Type.Array(Type.String())),
    assignees: Type.Optional(Type.Array(Type.String())),
    goal_ids: Type.Optional(Type.Array(Type.String())),
    due: Type.Optional(Type.Literal('overdue')),
    archived: Type.Optional(Type.Literal(true)),
  },
  { description: 'Lenient: stored values no longer usable are left out' },
);

export const View = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  layout: LayoutName,
  group_by: GroupByName,
  sort: SortName,
  sort_desc: Type.Boolean(),
  filters: Filters,
  position: Type.Integer({ description: 'Tab order: views read in ascending position' }),
  seed_key: Type.Optional(
    Type.String({
      description: 'Names a starting view (list, board, bugs); survives rename; absent on user-added views',
    }),
  ),
  created_by: Type.String({ description: 'system on starting views; else the principal id of who added it' }),
  version: Type.Integer({ description: 'Changes with every PATCH that changes something; not with a reorder' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type View = Static<typeof View>;

const Name = Type.String({
  maxLength: 1000,
  description: `Trimmed; 1 to ${NAME_MAX} characters; unique in the project ignoring case`,
});

export const ViewInput = Type.Object(
  {
    name: Name,
    layout: LayoutName,
    group_by: Type.Optional(GroupByName),
    sort: Type.Optional(SortName),
    sort_desc: Type.Optional(Type.Boolean({ description: 'Default false' })),
    filters: Type.Optional(FiltersInput),
  },
  { additionalProperties: false },
);
export type ViewInput = Static<typeof ViewInput>;

export const ViewPatch = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: 'The version that was read; an older one is 409 stale_version' }),
    name: Type.Optional(Name),
    layout: Type.Optional(LayoutName),
    group_by: Type.Optional(GroupByName),
    sort: Type.Optional(SortName),
    sort_desc: Type.Optional(Type.Boolean()),
    filters: Type.Optional(FiltersInput),
  },
  {
    additionalProperties: false,
    description: 'Changes only the fields sent; sent filters replace all, {} removes all',
  },
);
export type ViewPatch = Static<typeof ViewPatch>;

export const ViewOrder = Type.Object(
  {
    view_ids: Type.Array(Uuid, {
      maxItems: 200,
      description: 'Every view of the project, each once, in the new tab order',
    }),
  },
  { additionalProperties: false },
);
export type ViewOrder = Static<typeof ViewOrder>;

export const ViewParams = Type.Object({ id: Uuid, viewId: Uuid });
