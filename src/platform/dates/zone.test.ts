import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayInZone } from './zone.ts';

test("an instant's day is the one on the business's clock (SAST, UTC+2)", () => {
  // 23:00 UTC on 4 January 2014 is 01:00 on the 5th in Johannesburg.
  assert.equal(dayInZone(new Date('2014-01-04T23:00:00Z')), '2014-01-05');
  assert.equal(dayInZone(new Date('2014-01-04T21:59:59Z')), '2014-01-04');
  assert.equal(dayInZone(new Date('2014-01-04T22:00:00Z')), '2014-01-05');
  // 12:20 EST (UTC-5) on 1 April 2009 is 17:20 UTC, 19:20 SAST: the same day.
  assert.equal(dayInZone(new Date('2009-04-01T12:20:17-05:00')), '2009-04-01');
  assert.equal(dayInZone(new Date('2014-01-04T23:00:00Z'), 'UTC'), '2014-01-04');
});
