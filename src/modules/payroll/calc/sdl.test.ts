// SDL: 1% of leviable remuneration, none for an employer under the R500 000 exemption.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sdl, sdlExempt } from './sdl.ts';
import { SDL_2005 } from './test-tables.ts';

const eq = (actual: { toFixed(n: number): string }, expected: string) =>
  assert.equal(actual.toFixed(2), expected);

test('1% of leviable remuneration, no ceiling', () => {
  eq(sdl(SDL_2005, { remuneration: 25000, exempt: false }), '250.00'); // 1% × 25 000
  eq(sdl(SDL_2005, { remuneration: 200000, exempt: false }), '2000.00'); // no ceiling
  eq(sdl(SDL_2005, { remuneration: 4567.89, exempt: false }), '45.68'); // 45.6789 → 45.68
});

test('an employer under the exemption pays none', () => {
  // two employees at R20 000 a month: R480 000 a year ≤ R500 000 → exempt
  assert.equal(sdlExempt(SDL_2005, 480000), true);
  assert.equal(sdlExempt(SDL_2005, 500000), true); // "not exceed": at the threshold still exempt
  assert.equal(sdlExempt(SDL_2005, 500000.01), false);
  eq(sdl(SDL_2005, { remuneration: 20000, exempt: sdlExempt(SDL_2005, 480000) }), '0.00');
  eq(sdl(SDL_2005, { remuneration: 20000, exempt: false, applies: false }), '0.00');
});
