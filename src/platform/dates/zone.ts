// The calendar day of an instant where the business is. A bank that writes a booking time with
// its zone ("2014-01-04T23:00:00Z", "20090401122017[-5:EST]") means an instant; the books keep
// days, and the day is the one on the company's clock: 23:00 UTC on the 4th is the 5th in
// Johannesburg. Companies have no zone of their own yet: every company is South African (SAST,
// UTC+2, no daylight saving), so BUSINESS_TIME_ZONE is the one zone until a company needs another.

export const BUSINESS_TIME_ZONE = 'Africa/Johannesburg';

const formatters = new Map<string, Intl.DateTimeFormat>();
const QUARTER_HOUR = 15 * 60_000;
const quarterDays = new Map<string, string>();

/**
 * The instant's day (YYYY-MM-DD) in the zone. Remembered per quarter hour: zones' offsets, and the
 * moments they change, fall on quarter hours, so a quarter hour is all one day in any zone (Intl is
 * slow, and a statement with a time on every line repeats its quarter hours). Bounded: a
 * long-running server reads many files.
 */
export function dayInZone(instant: Date, zone: string = BUSINESS_TIME_ZONE): string {
  const key = `${zone} ${Math.floor(instant.getTime() / QUARTER_HOUR)}`;
  let day = quarterDays.get(key);
  if (day === undefined) {
    if (quarterDays.size >= 20_000) quarterDays.clear();
    day = formatterOf(zone).format(instant);
    quarterDays.set(key, day);
  }
  return day;
}

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    // en-CA writes dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}
