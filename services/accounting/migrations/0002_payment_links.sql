-- Payment journal links: payment-linked entries share a non-null payment_id.
ALTER TABLE journal_entries ADD COLUMN payment_id uuid;
CREATE INDEX journal_entries_payment ON journal_entries (payment_id) WHERE payment_id IS NOT NULL;
