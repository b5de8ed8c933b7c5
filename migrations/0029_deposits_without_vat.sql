-- Deposits carry no VAT (issue 14, item 7; VAT Act s1: a deposit is no "consideration" until it
-- is applied or forfeited). A deposit made before this priced its lines with VAT on the document,
-- though its entry never posted any (Dr bank / Cr customer deposits, the whole total). Its
-- document is made to say what was posted: each line out of VAT (tax code out_of_scope, rate 0,
-- no VAT), its net the amount received (its old total), its unit price and discount grossed up
-- by the old rate; the document's subtotal is its total and its VAT nil. The totals, and the
-- ledger, do not change. (Row-level security lifted for these statements only, as in 0024.)
ALTER TABLE invoice_lines NO FORCE ROW LEVEL SECURITY;
ALTER TABLE invoices NO FORCE ROW LEVEL SECURITY;

UPDATE invoice_lines l
   SET unit_price = round(l.unit_price * (1 + l.vat_rate / 100), 4),
       discount_amount = round(l.discount_amount * (1 + l.vat_rate / 100), 2),
       net_amount = l.total_amount,
       vat_amount = 0,
       vat_rate = 0,
       requested_vat_rate = NULL,
       tax_code = 'out_of_scope'
  FROM invoices i
 WHERE i.tenant_id = l.tenant_id AND i.id = l.invoice_id
   AND i.document_type = 'deposit' AND l.tax_code <> 'out_of_scope';

UPDATE invoices i
   SET subtotal = i.total,
       vat_total = 0,
       discount_total = coalesce((SELECT sum(l.discount_amount) FROM invoice_lines l
                                   WHERE l.tenant_id = i.tenant_id AND l.invoice_id = i.id
                                     AND l.retired_at IS NULL), 0)
 WHERE i.document_type = 'deposit' AND (i.vat_total <> 0 OR i.subtotal <> i.total);

ALTER TABLE invoices FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice_lines FORCE ROW LEVEL SECURITY;
