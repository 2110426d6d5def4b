import { trimmedText } from './text.ts';

/**
 * Project rules (spec 2, Project): names, the settings an owner may change, and the status
 * actions (archive, restore, knowledge contribution, legal hold).
 */

/** Trimmed; 1 to 200 characters (projects and templates alike). */
export const trimmedName = (raw: string, field = 'data/name', what = 'The project name'): string =>
  trimmedText(raw, { max: 200, code: 'invalid_name', what, field });

/** What an owner may change with PATCH /v1/projects/{id}; workflow is set once at creation and is not here. */
export const SETTING_FIELDS = ['name', 'description', 'instructions', 'checkin_weekday', 'goals'] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

export type Settings = {
  name: string;
  description: string;
  instructions: string;
  checkin_weekday: number;
  goals: string;
};

/**
 * The settings a PATCH really changes: fields sent with a value other than the stored one (the
 * name trimmed first). An empty result is a no-op: no change number, no event.
 */
export function settingChanges(current: Settings, patch: Partial<Settings>): Partial<Settings> {
  const out: Partial<Settings> = {};
  for (const f of SETTING_FIELDS) {
    const sent = patch[f];
    if (sent === undefined) continue;
    const value = f === 'name' ? trimmedName(sent as string) : sent;
    if (value !== current[f]) (out as Record<string, unknown>)[f] = value;
  }
  return out;
}

/** The actions of POST /v1/projects/{id}/status. */
export const STATUS_ACTIONS = [
  'archive',
  'restore',
  'withdraw_from_knowledge',
  'contribute_to_knowledge',
  'legal_hold',
  'release_legal_hold',
] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];

export interface ProjectFlags {
  status: 'active' | 'archived';
  contributes_to_knowledge: boolean;
  legal_hold: boolean;
}

export type FlagChange =
  | { column: 'status'; value: 'active' | 'archived'; event: 'project.archived' | 'project.restored' }
  | { column: 'contributes_to_knowledge'; value: boolean; event: 'project.knowledge_changed' }
  | { column: 'legal_hold'; value: boolean; event: 'project.legal_hold_changed' };

const ACTION_CHANGE: Record<StatusAction, FlagChange> = {
  archive: { column: 'status', value: 'archived', event: 'project.archived' },
  restore: { column: 'status', value: 'active', event: 'project.restored' },
  withdraw_from_knowledge: { column: 'contributes_to_knowledge', value: false, event: 'project.knowledge_changed' },
  contribute_to_knowledge: { column: 'contributes_to_knowledge', value: true, event: 'project.knowledge_changed' },
  legal_hold: { column: 'legal_hold', value: true, event: 'project.legal_hold_changed' },
  release_legal_hold: { column: 'legal_hold', value: false, event: 'project.legal_hold_changed' },
};

/** What an action changes, or null when the project already is that way (a no-op). */
export function statusChange(p: ProjectFlags, action: StatusAction): FlagChange | null {
  const change = ACTION_CHANGE[action];
  return p[change.column] === change.value ? null : change;
}
