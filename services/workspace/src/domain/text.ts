import { unprocessable } from '@platform/kit';

export interface TrimmedRule {
  max: number;
  /** The 422 code when the trimmed text is empty or too long. */
  code: string;
  /** What the message calls it, e.g. "The title". */
  what: string;
  field: string;
}

/**
 * Names and titles are trimmed, then must be 1 to `max` characters; otherwise 422 with the
 * rule's code and a message naming the limit (and the length found).
 */
export function trimmedText(raw: string, r: TrimmedRule): string {
  const text = raw.trim();
  if (text.length < 1 || text.length > r.max) {
    throw unprocessable(
      r.code,
      `${r.what} must be 1 to ${r.max} characters after trimming (it has ${text.length})`,
      r.field,
    );
  }
  return text;
}
