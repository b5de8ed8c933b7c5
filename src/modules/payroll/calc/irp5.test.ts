// The IRP5 source codes are the ones SARS's guide names, each once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IRP5 } from './irp5.ts';

test('the source codes', () => {
  assert.equal(IRP5.SALARY, '3601');
  assert.equal(IRP5.ANNUAL_PAYMENT, '3605');
  assert.equal(IRP5.PAYE, '4102');
  assert.equal(IRP5.UIF, '4141');
  assert.equal(IRP5.SDL, '4142');
  assert.equal(IRP5.PAYE_SDL_UIF_TOTAL, '4149');
  const codes = Object.values(IRP5);
  assert.equal(new Set(codes).size, codes.length);
  for (const c of codes) assert.match(c, /^[34][0-9]{3}$/);
});
