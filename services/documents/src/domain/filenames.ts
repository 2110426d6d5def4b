import { unprocessable } from '@platform/kit';

/** The longest filename accepted. */
export const MAX_FILENAME_LENGTH = 255;
/** An extension: 1-16 letters or digits after the last dot. */
const EXTENSION_RE = /^[A-Za-z0-9]{1,16}$/;
/**
 * Characters no safe filename carries: control characters (C0, DEL, C1), line and paragraph
 * separators, path separators, characters Windows refuses in names, and invisible format
 * characters: the bidirectional overrides that make a name read other than it is
 * ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"), zero-width spaces and joiners, soft
 * hyphens, byte-order marks. The zero-width joiner inside emoji sequences is the one exception.
 */
const UNSAFE_CHAR_RE = /[\p{Cc}\p{Zl}\p{Zp}/\\<>:"|?*]|(?!\u200d)\p{Cf}/u;
/** Device names Windows reserves, whatever the extension. */
const RESERVED_STEM_RE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

export interface SafeFilename {
  /** The part before the last dot. */
  stem: string;
  /** The part after the last dot, as given. */
  extension: string;
}

/**
 * A safe filename with an extension, or a 422: `unsafe_filename` for a name that is not safe,
 * `filename_extension_required` for one without an extension.
 *
 * Safe: 1-255 characters; no path separators, control characters, line separators,
 * Windows-reserved characters (< > : " | ? *) or invisible format characters (UNSAFE_CHAR_RE);
 * no leading dot, no `..`, no leading or trailing whitespace, no trailing dot; not a Windows device name. Extension: 1-16 letters or digits
 * after the last dot, with a non-empty stem before it.
 */
export function safeFilename(name: string, field = 'filename'): SafeFilename {
  const unsafe = (why: string) => unprocessable('unsafe_filename', `filename ${why}`, field);
  // Characters as the schema counts them (code points), not UTF-16 units.
  const length = [...name].length;
  if (length === 0 || length > MAX_FILENAME_LENGTH) {
    throw unsafe(`must be 1-${MAX_FILENAME_LENGTH} characters`);
  }
  if (UNSAFE_CHAR_RE.test(name)) {
    throw unsafe(
      'must not contain path separators, control, format or line-separator characters, or any of < > : " | ? *',
    );
  }
  if (name.startsWith('.')) throw unsafe('must not start with a dot');
  if (name.includes('..')) throw unsafe('must not contain ..');
  if (name.trim() !== name) throw unsafe('must not start or end with whitespace');
  if (name.endsWith('.')) throw unsafe('must not end with a dot');
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  if (RESERVED_STEM_RE.test(stem.split('.')[0].trim())) throw unsafe('must not be a reserved device name');
  const extension = dot > 0 ? name.slice(dot + 1) : '';
  if (!EXTENSION_RE.test(extension) || stem.trim() === '') {
    throw unprocessable(
      'filename_extension_required',
      'filename must end in an extension of 1-16 letters or digits (e.g. report.pdf)',
      field,
    );
  }
  return { stem, extension };
}
