-- Issue 14, item 8: the orphan reaper. A registration marks its blob in flight before it asks
-- storage for the blob, and unmarks it when it ends (committed or not). The reaper never deletes
-- a blob that a document records or that a registration has marked, and it decides and deletes
-- while holding the blob name's advisory lock, which marking takes too: a registration either is
-- seen by the reaper, or starts after the blob is gone (and answers 422 blob_not_found). A mark
-- left by a crashed process stops counting after an hour (no registration runs that long) and the
-- reaper removes it.
CREATE TABLE registrations_in_flight (
  id uuid PRIMARY KEY,
  blob_name text NOT NULL,
  started_at timestamptz NOT NULL
);
CREATE INDEX registrations_in_flight_by_blob ON registrations_in_flight (blob_name, started_at);
CREATE INDEX registrations_in_flight_by_start ON registrations_in_flight (started_at);
