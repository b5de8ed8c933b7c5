// The stock fields of a document line (issue 20): the unit its quantity is given in, the batch
// and the serial numbers of the goods. Sales lines, bill lines, purchase-order lines and receipt
// lines spread the parts that apply to them; every line answers all four (null when not given).
import { Type } from 'typebox';
import { nullable } from '../../platform/http/nullable.ts';

const unit = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 50,
    description:
      'A unit of the product (its base unit or one of /api/products/{id}/units, any case) the quantity is ' +
      "given in; the unit price is per that unit. Stock moves quantity × the unit's factor base units. " +
      'Default: the base unit',
  }),
);

const batchCode = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      'The batch of a batch-tracked product. Going out (a sale): the batch taken from; left out, batches are ' +
      'picked first expiry first out, expired ones never. Coming in: required, made when new',
  }),
);

const batchExpiry = Type.Optional(
  Type.String({ format: 'date', description: 'Coming in: the expiry of a new batch' }),
);

const serials = Type.Optional(
  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    maxItems: 1000,
    description:
      'The serial numbers of a serial-tracked product, one per base unit: as many as the quantity in base ' +
      'units (its absolute value), each once',
  }),
);

/** A sales line's (invoice, cash sale, credit note, delivery note). */
export const salesLineStock = { unit, batchCode, serials };

/** A bill line's: goods coming in. */
export const billLineStock = { unit, batchCode, batchExpiry, serials };

/** A purchase-order line's: the unit ordered in (receipts and bills from it count in it too). */
export const orderLineStock = { unit };

/** A receipt line's: the batch and serials of the goods received. */
export const receiptLineStock = { batchCode, batchExpiry, serials };

/** Every line answers what it was given. */
export const lineStockOut = {
  unit: nullable(Type.String()),
  batchCode: nullable(Type.String()),
  batchExpiry: nullable(Type.String({ format: 'date' })),
  serials: nullable(Type.Array(Type.String())),
};
