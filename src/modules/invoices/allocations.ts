// Credit notes and deposits applied to invoices. Each application is an entry that moves the
// amount between open items, so aged debtors and the invoice's balance follow:
//   credit note  Dr debtors control (the credit note's item)  Cr debtors control (the invoice's item)
//   deposit      Dr customer deposits                           Cr debtors control (the invoice's item)
//                (more than is due: Cr customer deposits, the excess, as a customer credit's item)
//   customer credit  Dr its account (its own item; an advance payment: net, and Dr VAT output the
//                VAT, both tagged standard)                     Cr debtors control (the invoice's item)

import { latestDay } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { money, toSql } from '../../platform/money/money.ts';
import { companyOf, today, type WorkCtx } from '../../platform/work/context.ts';
import { ledgerCtxOf, post, reverse, systemAccount } from '../ledger/index.ts';
import { touchAndAnnounce } from './announce.ts';
import {
  creditLabel,
  drawLines,
  drawnFromCredits,
  findCreditRow,
  lockCreditSource,
  vatDrawn,
} from './credit-sources.ts';
import { insertCredit, settleCredit, settleSource } from './customer-credits.ts';
import {
  amountDue,
  creditLeft,
  findInvoiceRow,
  lockInvoiceRow,
  RECEIVABLE_TYPES,
  settlements,
} from './invoices.queries.ts';
import { getInvoice } from './invoices.service.ts';
import { settleNote } from './notes.ts';
import { assertDrawable } from './refunds.ts';
import { settle } from './settle.ts';

const APPLICABLE = new Set(['open', 'partially_paid']);

async function receivable(ctx: WorkCtx, invoiceId: string) {
  const row = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!row) throw notFound('Document');
  if (!RECEIVABLE_TYPES.has(row.document_type))
    throw conflict('Only an invoice or a debit note takes payments and credits', { code: 'NOT_RECEIVABLE' });
  if (!APPLICABLE.has(row.status))
    throw conflict(`This ${row.document_type.replace('_', ' ')} is ${row.status}`, { code: 'NOT_OPEN' });
  return row;
}

export interface CreditInput {
  creditNoteId: string;
  amount?: number;
  date?: string;
  /**
   * Apply no more than what is due (a credit note released against its invoice): the credit
   * note is being released, and its release announces it as it ends up.
   */
  upToDue?: boolean;
  /** Issued by the void of the invoice, which sets the invoice's status and announces it. */
  voiding?: boolean;
}

export async function allocateCredit(ctx: WorkCtx, invoiceId: string, input: CreditInput) {
  const invoice = await receivable(ctx, invoiceId);
  const note = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), input.creditNoteId);
  if (note?.document_type !== 'credit_note') throw badRequest('sourceId', 'no such credit note');
  if (note.status === 'draft' || note.status === 'void')
    throw conflict(`The credit note is ${note.status}; release it first`, { code: 'NOT_OPEN' });
  if (note.contact_id !== invoice.contact_id)
    throw badRequest('sourceId', 'the credit note is for another customer');
  const s = await settlements(ctx.db, ctx.tenantId, [invoice.id, note.id]);
  const due = money(amountDue(invoice, s.get(invoice.id)!));
  const left = money(creditLeft(note, s.get(note.id)!));
  if (left.lessThanOrEqualTo(0))
    throw conflict('Nothing is left of this credit note to apply', { code: 'ALREADY_APPLIED' });
  let amount = input.amount === undefined ? (left.lessThan(due) ? left : due) : money(input.amount);
  if (input.upToDue && amount.greaterThan(due)) amount = due;
  if (amount.lessThanOrEqualTo(0)) return;
  if (amount.decimalPlaces() > 2) throw badRequest('amount', 'must have at most two decimals');
  if (amount.greaterThan(left))
    throw badRequest('amount', `only ${left.toFixed(2)} of the credit note is left`);
  if (amount.greaterThan(due)) throw badRequest('amount', `only ${due.toFixed(2)} is due on the invoice`);
  const date = input.date ?? latestDay(invoice.issue_date, note.issue_date, today(ctx));
  if (date < invoice.issue_date || date < note.issue_date)
    throw badRequest('date', 'must not be before either document is issued');
  const lctx = ledgerCtxOf(ctx);
  const debtors = await systemAccount(lctx, invoice.company_id, 'debtors_control');
  const entryId = await post(lctx, {
    companyId: invoice.company_id,
    date,
    description: `Credit note ${note.number} applied to ${invoice.number}`,
    reference: note.number,
    source: { type: 'credit_allocation', id: note.id },
    lines: [
      {
        accountId: debtors,
        debit: amount,
        contactId: note.contact_id,
        openItemId: note.id,
        dueDate: note.due_date,
      },
      {
        accountId: debtors,
        credit: amount,
        contactId: invoice.contact_id,
        openItemId: invoice.id,
        dueDate: invoice.due_date,
      },
    ],
  });
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('invoice_allocations')
    .values({
      tenant_id: ctx.tenantId,
      id,
      source_id: note.id,
      source_type: 'credit_note',
      invoice_id: invoice.id,
      amount: toSql(amount),
      date,
      entry_id: entryId,
    })
    .execute();
  if (!input.voiding) await settle(ctx, invoice, 'credit');
  // What is left of the credit note to apply changed too: all of it applied, it is `applied`.
  await settleNote(ctx, note.id);
  if (!input.upToDue) await touchAndAnnounce(ctx, note.id);
  return id;
}

export async function applyDeposit(
  ctx: TenantCtx,
  invoiceId: string,
  input: { depositId: string; date?: string },
) {
  const invoice = await receivable(ctx, invoiceId);
  const deposit = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), input.depositId);
  if (deposit?.document_type !== 'deposit') throw badRequest('sourceId', 'no such deposit');
  if (deposit.status === 'draft' || deposit.status === 'void')
    throw conflict(`The deposit is ${deposit.status}; release it first`, { code: 'NOT_OPEN' });
  if (deposit.contact_id !== invoice.contact_id)
    throw badRequest('sourceId', 'the deposit is from another customer');
  if (deposit.status === 'forfeited' || deposit.status === 'refunded')
    throw conflict(`Deposit ${deposit.number} is ${deposit.status}`, { code: 'NOT_OPEN' });
  const s = await settlements(ctx.db, ctx.tenantId, [invoice.id, deposit.id]);
  if (!money(s.get(deposit.id)!.applied).isZero())
    throw conflict(`Deposit ${deposit.number} has already been applied`, { code: 'DEPOSIT_ALREADY_APPLIED' });
  // What remains of it (all of it, unless part was refunded).
  const amount = money(creditLeft(deposit, s.get(deposit.id)!));
  if (amount.lessThanOrEqualTo(0))
    throw conflict(`Nothing is left of deposit ${deposit.number}`, { code: 'NO_CREDIT_LEFT' });
  const due = money(amountDue(invoice, s.get(invoice.id)!));
  if (due.lessThanOrEqualTo(0)) return undefined;
  // More than is due: the rest stays a deposit, as the customer's credit (deposit_excess) on its
  // own open item on customer deposits (still no supply, so still no VAT: VAT Act s1).
  const applied = amount.greaterThan(due) ? due : amount;
  const excess = amount.minus(applied);
  const creditId = excess.isZero() ? null : crypto.randomUUID();
  const date = input.date ?? latestDay(invoice.issue_date, deposit.issue_date, today(ctx));
  if (date < invoice.issue_date || date < deposit.issue_date)
    throw badRequest('date', 'must not be before either document is issued');
  const lctx = ledgerCtxOf(ctx);
  const deposits = await systemAccount(lctx, invoice.company_id, 'customer_deposits');
  const entryId = await post(lctx, {
    companyId: invoice.company_id,
    date,
    description: `Deposit ${deposit.number} applied to ${invoice.number}`,
    reference: deposit.number,
    source: { type: 'deposit_allocation', id: deposit.id },
    lines: [
      {
        accountId: deposits,
        debit: amount,
        contactId: deposit.contact_id,
        openItemId: deposit.id,
      },
      {
        accountId: await systemAccount(lctx, invoice.company_id, 'debtors_control'),
        credit: applied,
        contactId: invoice.contact_id,
        openItemId: invoice.id,
        dueDate: invoice.due_date,
      },
      ...(creditId
        ? [
            {
              accountId: deposits,
              credit: excess,
              description: `Deposit ${deposit.number}: excess over ${invoice.number}, customer credit`,
              contactId: deposit.contact_id,
              openItemId: creditId,
            },
          ]
        : []),
    ],
  });
  // The unique index on live deposit allocations stands behind the check above (409 on a race).
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('invoice_allocations')
    .values({
      tenant_id: ctx.tenantId,
      id,
      source_id: deposit.id,
      source_type: 'deposit',
      invoice_id: invoice.id,
      amount: toSql(applied),
      date,
      entry_id: entryId,
    })
    .execute();
  if (creditId)
    await insertCredit(ctx, creditId, {
      kind: 'deposit_excess',
      companyId: invoice.company_id,
      contactId: deposit.contact_id,
      date,
      amount: toSql(excess),
      accountId: deposits,
      documentId: deposit.id,
      reference: deposit.number,
      entryId,
    });
  await settle(ctx, invoice, 'payment');
  // The deposit is applied now: what is left of it to apply changed too.
  await touchAndAnnounce(ctx, deposit.id);
  return id;
}

/**
 * A customer credit (an overpayment, a deposit's excess, an advance payment) applied to an
 * invoice of the same customer, partly or wholly: drawn out of its open item (credit-sources.ts)
 * against the invoice's item on debtors control. The credit is locked after the invoice (the
 * order every allocation takes), so two applications at once cannot over-apply it.
 */
export async function applyCustomerCredit(
  ctx: TenantCtx,
  invoiceId: string,
  input: { creditId: string; amount?: number | undefined; date?: string | undefined },
) {
  const invoice = await receivable(ctx, invoiceId);
  const source = (await lockCreditSource(ctx, input.creditId))!;
  assertDrawable(source);
  if (source.contactId !== invoice.contact_id)
    throw badRequest('sourceId', 'the credit is from another customer');
  const due = money(
    amountDue(invoice, (await settlements(ctx.db, ctx.tenantId, [invoice.id])).get(invoice.id)!),
  );
  const amount =
    input.amount === undefined
      ? source.remaining.lessThan(due)
        ? source.remaining
        : due
      : money(input.amount);
  if (amount.decimalPlaces() > 2) throw badRequest('amount', 'must have at most two decimals');
  if (amount.greaterThan(source.remaining))
    throw badRequest('amount', `only ${source.remaining.toFixed(2)} of the ${source.label} is left`);
  if (amount.greaterThan(due)) throw badRequest('amount', `only ${due.toFixed(2)} is due on the invoice`);
  const date = input.date ?? latestDay(invoice.issue_date, source.date, today(ctx));
  if (date < invoice.issue_date || date < source.date)
    throw badRequest('date', 'must not be before the invoice is issued or the credit arose');
  const vat = vatDrawn(source, amount);
  const lctx = ledgerCtxOf(ctx);
  const description = `${source.label} applied to ${invoice.number}`;
  const entryId = await post(lctx, {
    companyId: invoice.company_id,
    date,
    description,
    reference: invoice.number,
    source: { type: 'credit_allocation', id: source.id },
    lines: [
      ...(await drawLines(lctx, source, amount, vat, description)),
      {
        accountId: await systemAccount(lctx, invoice.company_id, 'debtors_control'),
        credit: amount,
        contactId: invoice.contact_id,
        openItemId: invoice.id,
        dueDate: invoice.due_date,
      },
    ],
  });
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('invoice_allocations')
    .values({
      tenant_id: ctx.tenantId,
      id,
      source_id: source.id,
      source_type: 'customer_credit',
      invoice_id: invoice.id,
      amount: toSql(amount),
      vat_amount: toSql(vat),
      date,
      entry_id: entryId,
    })
    .execute();
  // Money the customer paid: it counts as paid on the invoice (invoice.paid when it settles it).
  await settle(ctx, invoice, 'payment');
  await settleCredit(ctx, source.id);
  return id;
}

/**
 * POST /api/invoices/{id}/allocations: a credit note (partly, if asked), a deposit (what remains
 * of it, its excess over what is due left as customer credit) or a customer credit (partly).
 */
export async function allocate(
  ctx: TenantCtx,
  invoiceId: string,
  input: { sourceId: string; amount?: number | undefined; date?: string | undefined },
) {
  // The invoice first: another tenant's id is a 404 whatever the body says.
  if (!(await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId))) throw notFound('Document');
  let id: string | undefined;
  if (await findCreditRow(ctx, input.sourceId)) {
    id = await applyCustomerCredit(ctx, invoiceId, { creditId: input.sourceId, ...input });
  } else {
    const source = await ctx.db
      .selectFrom('invoices')
      .select(['document_type', 'total'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', companyOf(ctx))
      .where('id', '=', input.sourceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!source || (source.document_type !== 'credit_note' && source.document_type !== 'deposit'))
      throw badRequest('sourceId', 'no such credit note, deposit or customer credit in this company');
    if (source.document_type === 'deposit') {
      if (input.amount !== undefined)
        throw badRequest('amount', 'a deposit is applied whole (what remains of it); leave amount out');
      id = await applyDeposit(ctx, invoiceId, {
        depositId: input.sourceId,
        ...(input.date ? { date: input.date } : {}),
      });
    } else {
      id = await allocateCredit(ctx, invoiceId, {
        creditNoteId: input.sourceId,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        ...(input.date ? { date: input.date } : {}),
      });
    }
  }
  if (!id) throw conflict('Nothing is due on the invoice', { code: 'ALREADY_PAID' });
  ctx.reply.code(201);
  return (await listAllocations(ctx, invoiceId)).find((a) => a.id === id)!;
}

/** Undoes an application: its entry is reversed and it stops counting. */
export async function reverseAllocation(ctx: TenantCtx, invoiceId: string, allocationId: string) {
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!invoice) throw notFound('Document');
  const a = await ctx.db
    .selectFrom('invoice_allocations')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', allocationId)
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!a) throw notFound('Allocation');
  if (a.reversed_at)
    throw conflict('This allocation has already been reversed', { code: 'ALREADY_REVERSED' });
  // The credit note a void issued stays applied to its invoice: undoing it would make a void
  // invoice owed again.
  if (invoice.status === 'void')
    throw conflict(`${invoice.number} is void; its credit note stays applied to it`, {
      code: 'ALREADY_VOID',
    });
  // A deposit's excess over the invoice became a credit in this entry: it goes with it, unless
  // some of it was applied, refunded or forfeited.
  const excess = await ctx.db
    .selectFrom('customer_credits')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('entry_id', '=', a.entry_id)
    .where('kind', '=', 'deposit_excess')
    .where('reversed_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (excess) {
    const drawn = (await drawnFromCredits(ctx, [excess.id])).get(excess.id)!;
    if (!drawn.amount.isZero())
      throw conflict(
        `${drawn.amount.toFixed(2)} of the credit this deposit's excess left has been applied, refunded or ` +
          'forfeited; reverse that first (a forfeit cannot be)',
        { code: 'CREDIT_IN_USE' },
      );
  }
  const reversal = await reverse(ledgerCtxOf(ctx), a.entry_id, { description: 'Allocation reversed' });
  if (excess) {
    await ctx.db
      .updateTable('customer_credits')
      .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', excess.id)
      .execute();
    await settleCredit(ctx, excess.id);
  }
  await ctx.db
    .updateTable('invoice_allocations')
    .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', allocationId)
    .execute();
  await settle(ctx, invoice, 'reversal');
  // The credit note, deposit or credit has that much to apply again (an applied one is open).
  await settleSource(ctx, { type: a.source_type, id: a.source_id });
  return getInvoice(ctx, invoiceId);
}

export async function listAllocations(ctx: TenantCtx, invoiceId: string) {
  const invoice = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!invoice) throw notFound('Document');
  const rows = await ctx.db
    .selectFrom('invoice_allocations as a')
    .leftJoin('invoices as s', (j) =>
      j.onRef('s.tenant_id', '=', 'a.tenant_id').onRef('s.id', '=', 'a.source_document_id'),
    )
    .leftJoin('customer_credits as c', (j) =>
      j.onRef('c.tenant_id', '=', 'a.tenant_id').onRef('c.id', '=', 'a.source_credit_id'),
    )
    .selectAll('a')
    .select(['s.number as source_number', 'c.kind as credit_kind', 'c.date as credit_date'])
    .where('a.tenant_id', '=', ctx.tenantId)
    .where((eb) => eb.or([eb('a.invoice_id', '=', invoiceId), eb('a.source_id', '=', invoiceId)]))
    .orderBy('a.created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    sourceId: r.source_id,
    sourceType: r.source_type,
    // A customer credit has no number: it is named by its kind and date.
    sourceNumber: r.source_number ?? creditLabel(r.credit_kind!, r.credit_date!),
    invoiceId: r.invoice_id,
    amount: Number(r.amount),
    vatAmount: Number(r.vat_amount),
    date: r.date,
    entryId: r.entry_id,
    reversedAt: r.reversed_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}
