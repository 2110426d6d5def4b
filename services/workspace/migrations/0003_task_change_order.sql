-- Change-log reads (task history, GET items/changes) go newest first by change number: writes to a
-- project are serialized under its lock, so the change number is the true order even when clocks
-- repeat or step back. These replace the created_at indexes of 0001, which no read uses.
DROP INDEX task_changes_task;
DROP INDEX task_changes_project;
DROP INDEX task_changes_project_field;
CREATE INDEX task_changes_task ON task_changes (task_id, change_seq DESC, id DESC);
CREATE INDEX task_changes_project ON task_changes (project_id, change_seq DESC, id DESC);
CREATE INDEX task_changes_project_field ON task_changes (project_id, field, change_seq DESC, id DESC);
