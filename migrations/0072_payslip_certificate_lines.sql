-- Payslip lines for the tax certificate (issue 34, item 14). SARS PAYE-AE-06-G4 and the PAYE BRS
-- (section 6, source code descriptions) want 4001 and 4005 to carry what the employee paid AND is
-- deemed to have paid (the employer's contribution, taxed as the benefit 3817 / 3810), 4116 the
-- medical scheme fees tax credit the PAYE took into account and 4118 the ETI. The employer's share
-- already has its benefit line (3817, 3810) and its contribution line (4472, 4474); its "deemed
-- paid" part and the medical credit are neither pay nor a deduction, so they get a kind of their
-- own, tax_certificate, that gross, deductions and net leave alone. Summing a tax year's lines by
-- code gives the certificate's figures. Payslips calculated before keep their lines.
ALTER TABLE payslip_lines DROP CONSTRAINT payslip_lines_kind_check;
ALTER TABLE payslip_lines ADD CONSTRAINT payslip_lines_kind_check
  CHECK (kind IN ('earning', 'fringe_benefit', 'deduction', 'employer', 'eti', 'tax_certificate'));
