-- Balance rows are locked in key order (entity, month, account), so two postings or deletions
-- touching the same accounts never wait on each other's rows crosswise (deadlock).

CREATE OR REPLACE FUNCTION balances_add_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balances (legal_entity_id, month, account_id, debit, credit)
  SELECT e.legal_entity_id, reporting_month(e.post_month, e.transaction_date), l.account_id,
         sum(CASE WHEN l.direction = 'debit' THEN l.amount ELSE 0 END),
         sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE 0 END)
  FROM new_lines l JOIN journal_entries e ON e.id = l.entry_id
  WHERE e.status = 'posted'
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (legal_entity_id, month, account_id)
  DO UPDATE SET debit = balances.debit + excluded.debit, credit = balances.credit + excluded.credit;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION balances_remove_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM balances b
  JOIN (
    SELECT DISTINCT e.legal_entity_id, reporting_month(e.post_month, e.transaction_date) AS month, l.account_id
    FROM old_lines l JOIN journal_entries e ON e.id = l.entry_id
    WHERE e.status = 'posted'
  ) k ON b.legal_entity_id = k.legal_entity_id AND b.month = k.month AND b.account_id = k.account_id
  ORDER BY b.legal_entity_id, b.month, b.account_id
  FOR UPDATE OF b;
  UPDATE balances b SET debit = b.debit - x.debit, credit = b.credit - x.credit
  FROM (
    SELECT e.legal_entity_id, reporting_month(e.post_month, e.transaction_date) AS month, l.account_id,
           sum(CASE WHEN l.direction = 'debit' THEN l.amount ELSE 0 END) AS debit,
           sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE 0 END) AS credit
    FROM old_lines l JOIN journal_entries e ON e.id = l.entry_id
    WHERE e.status = 'posted'
    GROUP BY 1, 2, 3
  ) x
  WHERE b.legal_entity_id = x.legal_entity_id AND b.month = x.month AND b.account_id = x.account_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION balances_entries_posted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balances (legal_entity_id, month, account_id, debit, credit)
  SELECT n.legal_entity_id, reporting_month(n.post_month, n.transaction_date), l.account_id,
         sum(CASE WHEN l.direction = 'debit' THEN l.amount ELSE 0 END),
         sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE 0 END)
  FROM new_entries n
  JOIN old_entries o ON o.id = n.id AND o.status = 'draft'
  JOIN journal_lines l ON l.entry_id = n.id
  WHERE n.status = 'posted'
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (legal_entity_id, month, account_id)
  DO UPDATE SET debit = balances.debit + excluded.debit, credit = balances.credit + excluded.credit;
  RETURN NULL;
END $$;
