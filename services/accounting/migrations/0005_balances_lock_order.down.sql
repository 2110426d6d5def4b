-- Nothing to undo: 0005 only makes the balance triggers take row locks in key order; they
-- compute the same balances as before, so rolling back keeps the safer functions.
SELECT 1;
