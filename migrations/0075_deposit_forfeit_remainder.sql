-- Issue 34, item 17: what is left of a deposit applied to a smaller invoice can be forfeited.
-- Applied, a deposit's excess over the invoice became a customer credit (deposit_excess) on its
-- own open item on customer deposits, so the deposit itself had nothing left to forfeit (409
-- NO_CREDIT_LEFT). A forfeit now takes what remains of that credit: credit_id names it (null: the
-- deposit's own remainder, as before), and the credit's status can be `forfeited`.
ALTER TABLE deposit_forfeits ADD COLUMN credit_id uuid;
ALTER TABLE deposit_forfeits ADD CONSTRAINT deposit_forfeits_credit_fk
  FOREIGN KEY (tenant_id, credit_id) REFERENCES customer_credits (tenant_id, id);

ALTER TABLE customer_credits DROP CONSTRAINT customer_credits_status_check;
ALTER TABLE customer_credits ADD CONSTRAINT customer_credits_status_check
  CHECK (status IN ('open', 'applied', 'refunded', 'reversed', 'forfeited'));
