/** Months are `YYYY-MM-01` strings; they compare correctly as strings. */

export const monthOf = (date: string) => `${date.slice(0, 7)}-01`;

export function addMonths(month: string, n: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  const y = Math.floor(total / 12);
  const m = (total % 12) + 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`;
}

export const isFirstOfMonth = (date: string) => date.slice(8, 10) === '01';

/** YYYY-MM -> YYYY-MM-01 */
export const fromYearMonth = (ym: string) => `${ym}-01`;
export const toYearMonth = (month: string) => month.slice(0, 7);
export const yearMonthParts = (month: string) => ({
  year: Number(month.slice(0, 4)),
  month: Number(month.slice(5, 7)),
});
export const monthFromParts = (year: number, month: number) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Each zone's last answer: formatToParts costs ~0.1 ms, and a posting asks once (issue 22). */
const lastDates = new Map<string, { second: number; date: string }>();

/** The date at `now` in an IANA timezone, as YYYY-MM-DD. */
export function localDate(now: Date, timezone: string): string {
  // Zone offsets are whole seconds, so a local date holds for a whole UTC second.
  const second = Math.floor(now.getTime() / 1000);
  const last = lastDates.get(timezone);
  if (last?.second === second) return last.date;
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timezone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(now).map((p) => [p.type, p.value]));
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  lastDates.set(timezone, { second, date });
  return date;
}

/**
 * The IANA name to store for `tz` (Area/Location, or UTC and its Etc aliases; no raw offsets), in
 * IANA's own spelling (`europe/berlin` is stored as `Europe/Berlin`); null when the runtime does
 * not know it. Aliases such as `US/Eastern` are kept as given.
 */
export function canonicalTimezone(tz: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return null;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === tz.toLowerCase() ? resolved : tz;
  } catch {
    return null;
  }
}
