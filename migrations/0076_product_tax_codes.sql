-- Issue 34, item 19: a product's VAT by tax code, as document lines take it. A product held a free
-- vat_rate (any percent from 0 to 100) that no document read: an invoice line naming a product of
-- 14% charged 15%. It now carries a sales tax code (a sales line's codes) and a purchase tax code
-- (a bill line's), and a line naming it without a code of its own takes them.
--
-- The rates products held, mapped to the code whose rate they are today (15% since 2018-04-01):
--   null (the standard rate of the document's date) and 15   standard
--   0                                                        zero, bought and sold (zero rating
--                                                            follows the goods, VAT Act s11(1))
--   anything else (7, 14: the rate of no code today)         standard, the code every document
--                                                            naming the product was charged at,
--                                                            and a note saying so (tax_note), for
--                                                            someone to confirm: a 14% product
--                                                            is most likely a product priced
--                                                            before 2018; a 7% one a mistake
-- vat_rate is kept as it was (nothing is erased) and no longer read.
ALTER TABLE products ADD COLUMN sales_tax_code text NOT NULL DEFAULT 'standard'
  CHECK (sales_tax_code IN ('standard', 'zero', 'zero_export', 'exempt', 'out_of_scope',
                            'accommodation_short', 'accommodation_long'));
ALTER TABLE products ADD COLUMN purchase_tax_code text NOT NULL DEFAULT 'standard'
  CHECK (purchase_tax_code IN ('standard', 'standard_capital', 'zero', 'exempt', 'out_of_scope'));
ALTER TABLE products ADD COLUMN tax_note text;

-- Row-level security lifted for these statements only, as in 0022 and 0025.
ALTER TABLE products NO FORCE ROW LEVEL SECURITY;
UPDATE products SET sales_tax_code = 'zero', purchase_tax_code = 'zero' WHERE vat_rate = 0;
UPDATE products
   SET tax_note = 'vatRate ' || trim(trailing '.' from trim(trailing '0' from vat_rate::text)) ||
                  '% was the rate of no tax code when codes came (migration 0076): given standard, ' ||
                  'the code its documents were charged at; set salesTaxCode to confirm or change it'
 WHERE vat_rate IS NOT NULL AND vat_rate <> 0 AND vat_rate <> 15;
ALTER TABLE products FORCE ROW LEVEL SECURITY;
