-- Payroll (issue 21): an employee's occupation, printed on the payslip. The Basic Conditions of
-- Employment Act s33(1)(b) asks every payslip to give the employee's name and occupation.
-- Nullable: employees recorded before it have none until one is given.

ALTER TABLE employees ADD COLUMN job_title text;
