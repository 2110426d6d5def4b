-- Deletion audit records: a full snapshot of every removed entry.
CREATE TABLE deleted_entries (
  entry_id uuid PRIMARY KEY,
  legal_entity_id uuid NOT NULL,
  payment_id uuid,
  snapshot jsonb NOT NULL,
  reason text NOT NULL,
  why jsonb,
  deleted_at timestamptz NOT NULL,
  deleted_by text NOT NULL
);
CREATE INDEX deleted_entries_by_entity ON deleted_entries (legal_entity_id, deleted_at DESC);
