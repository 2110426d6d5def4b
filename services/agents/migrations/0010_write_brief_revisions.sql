-- A brief revision's write (issue 20): the morning job writes hundreds of recipient days, a paste
-- one. Four statements sent one by one (the day locks, the read of the days, the supersede, the
-- insert) were most of the job's own CPU on embedded PGlite, which parses, plans and answers each
-- on the job's thread; a function keeps its statements' plans for the session and is one round
-- trip. It runs in the schema it was created in, whatever the caller's search_path, inside the
-- caller's transaction (the day locks last until it ends).
--
-- revs: a JSON array of the new revisions, each named by briefs column (id, recipient,
-- brief_date, text, status, origin, written_by, model, failure, created_at) plus ord (its place in
-- the caller's list) and keep_published (the job without regenerate: a published brief of the day
-- is kept and nothing written). Each recipient day at most once. Answers one JSON object per
-- revision: {ord, kept, brief}, brief the written row, or the published row that was kept.
--
-- A published revision supersedes the day's published brief and its draft (AGT-265, AGT-279); a
-- draft supersedes only an earlier draft, so a failed regenerate leaves the published brief
-- readable. Revisions of a day are numbered from its highest, superseded ones included.
CREATE FUNCTION write_brief_revisions(revs jsonb) RETURNS SETOF jsonb
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  kept int[];
  kept_rows jsonb;
BEGIN
  -- Serializes every write of one recipient's day (the job, a paste, a retried draft), so
  -- revisions are numbered once and a concurrent paste and job never both stay published. Taken
  -- in key order, so two writers of several days never wait on each other in a cycle.
  PERFORM count(pg_advisory_xact_lock(hashtext(k))) FROM (
    SELECT DISTINCT 'brief:' || (r ->> 'recipient') || ':' || (r ->> 'brief_date') COLLATE "C" AS k
    FROM jsonb_array_elements(revs) AS r
    ORDER BY k
  ) AS days;

  SELECT coalesce(array_agg(i.ord), '{}'),
         coalesce(jsonb_agg(jsonb_build_object('ord', i.ord, 'kept', true, 'brief', to_jsonb(b))), '[]')
    INTO kept, kept_rows
  FROM jsonb_to_recordset(revs) AS i(ord int, recipient text, brief_date date, keep_published boolean)
  JOIN briefs AS b ON b.recipient = i.recipient AND b.brief_date = i.brief_date AND b.status = 'published'
  WHERE i.keep_published;

  -- The replaced rows leave the partial unique indexes before the new ones enter them;
  -- superseded_by names a row inserted next: the reference is checked at commit (DEFERRABLE).
  UPDATE briefs AS b SET status = 'superseded', superseded_by = i.id, superseded_at = i.created_at
  FROM jsonb_to_recordset(revs) AS i(ord int, id uuid, recipient text, brief_date date, status text, created_at timestamptz)
  WHERE i.ord <> ALL (kept)
    AND b.recipient = i.recipient AND b.brief_date = i.brief_date AND b.status <> 'superseded'
    AND (i.status = 'published' OR b.status = 'draft');

  RETURN QUERY SELECT jsonb_array_elements(kept_rows);
  RETURN QUERY
  WITH written AS (
    INSERT INTO briefs (id, recipient, brief_date, revision, text, status, origin, written_by, model, failure, created_at)
    SELECT i.id, i.recipient, i.brief_date,
      coalesce((SELECT max(d.revision) FROM briefs AS d WHERE d.recipient = i.recipient AND d.brief_date = i.brief_date), 0) + 1,
      i.text, i.status, i.origin, i.written_by, i.model, i.failure, i.created_at
    FROM jsonb_to_recordset(revs) AS i(ord int, id uuid, recipient text, brief_date date, text text, status text,
      origin text, written_by text, model text, failure text, created_at timestamptz)
    WHERE i.ord <> ALL (kept)
    RETURNING *
  )
  SELECT jsonb_build_object('ord', i.ord, 'kept', false, 'brief', to_jsonb(w))
  FROM written AS w JOIN jsonb_to_recordset(revs) AS i(ord int, id uuid) ON i.id = w.id;
END $$;
