import { createHash } from 'node:crypto';
import { conflict, notFound, unavailable, unprocessable } from '@platform/kit';
import { trimmedText } from './text.ts';

/**
 * Customer presentations (spec 2, "Projects and tasks"; WS-281..WS-287): an outline (what each
 * slide is about) and its sources on a project. A build has the model broker write each slide's
 * text from the outline and renders revision N + 1; an edit takes the slides from the editor and
 * renders revision N + 1; a failed render keeps its reason and resume renders that revision again.
 * The rendered file is one self-contained HTML slide deck, stored in the documents service.
 */

export const PRESENTATION_PAGE = { pageSize: 50, maxPageSize: 200 } as const;
export const PRESENTATION_TITLE_MAX = 200;
export const OUTLINE_MAX = 20;
export const SLIDE_TITLE_MAX = 200;
export const NOTES_MAX = 4_000;
export const SLIDE_BODY_MAX = 4_000;
export const SOURCES_MAX = 50;
export const REFERENCE_MAX = 2_000;
export const RECIPIENTS_MAX = 50;
export const SHARE_MESSAGE_MAX = 2_000;
/** The rendered file's media type: an HTML document with its own styles, no scripts, no links out. */
export const DECK_CONTENT_TYPE = 'text/html; charset=utf-8';
/** The largest rendered file read back for GET .../file (a deck of 20 slides is a few dozen KiB). */
export const DECK_MAX_BYTES = 8 * 1024 * 1024;
/** The longest reason kept for a failed render. */
const REASON_MAX = 1_000;

export const REVISION_ORIGINS = ['build', 'edit'] as const;
export type RevisionOrigin = (typeof REVISION_ORIGINS)[number];
export const REVISION_STATUSES = ['rendered', 'failed'] as const;
export type RevisionStatus = (typeof REVISION_STATUSES)[number];

export interface OutlineEntry {
  title: string;
  notes: string;
}
export interface Source {
  title: string;
  reference: string;
}
export interface Slide {
  title: string;
  body: string;
}

export const presentationNotFound = () => notFound('Presentation', 'presentation_not_found');
export const revisionNotFound = (n: number) =>
  notFound(`Revision ${n} of the presentation`, 'presentation_revision_not_found');

export const presentationTitle = (raw: string) =>
  trimmedText(raw, {
    max: PRESENTATION_TITLE_MAX,
    code: 'invalid_presentation_title',
    what: 'The presentation title',
    field: 'body/data/title',
  });

/** 1 to 20 entries, each a title (1..200 trimmed) and notes (at most 4,000): 422 invalid_outline. */
export function outline(raw: { title: string; notes?: string }[]): OutlineEntry[] {
  if (raw.length < 1 || raw.length > OUTLINE_MAX) {
    throw unprocessable(
      'invalid_outline',
      `An outline has 1 to ${OUTLINE_MAX} slides (it has ${raw.length})`,
      'body/data/outline',
    );
  }
  return raw.map((e, i) => {
    const field = `body/data/outline/${i}`;
    const title = e.title.trim();
    if (title.length < 1 || title.length > SLIDE_TITLE_MAX) {
      throw unprocessable(
        'invalid_outline',
        `Slide ${i + 1}'s title must be 1 to ${SLIDE_TITLE_MAX} characters`,
        field,
      );
    }
    const notes = (e.notes ?? '').trim();
    if (notes.length > NOTES_MAX) {
      throw unprocessable('invalid_outline', `Slide ${i + 1}'s notes are longer than ${NOTES_MAX} characters`, field);
    }
    return { title, notes };
  });
}

/** At most 50 sources, each a title (1..200 trimmed) and a reference (1..2,000, no spaces): 422 invalid_sources. */
export function sources(raw: { title: string; reference: string }[] | undefined): Source[] {
  const list = raw ?? [];
  if (list.length > SOURCES_MAX) {
    throw unprocessable('invalid_sources', `A presentation has at most ${SOURCES_MAX} sources`, 'body/data/sources');
  }
  return list.map((s, i) => {
    const field = `body/data/sources/${i}`;
    const title = s.title.trim();
    const reference = s.reference.trim();
    if (title.length < 1 || title.length > SLIDE_TITLE_MAX) {
      throw unprocessable(
        'invalid_sources',
        `Source ${i + 1}'s title must be 1 to ${SLIDE_TITLE_MAX} characters`,
        field,
      );
    }
    if (reference.length < 1 || reference.length > REFERENCE_MAX || /\s/.test(reference)) {
      throw unprocessable(
        'invalid_sources',
        `Source ${i + 1}'s reference must be 1 to ${REFERENCE_MAX} characters without spaces`,
        field,
      );
    }
    return { title, reference };
  });
}

/** An edit's slides: 1 to 20, each a title (1..200 trimmed) and a body (at most 4,000): 422 invalid_slides. */
export function slides(raw: { title: string; body: string }[]): Slide[] {
  if (raw.length < 1 || raw.length > OUTLINE_MAX) {
    throw unprocessable(
      'invalid_slides',
      `A revision has 1 to ${OUTLINE_MAX} slides (it has ${raw.length})`,
      'body/data/slides',
    );
  }
  return raw.map((s, i) => {
    const field = `body/data/slides/${i}`;
    const title = s.title.trim();
    const body = s.body.trim();
    if (title.length < 1 || title.length > SLIDE_TITLE_MAX) {
      throw unprocessable('invalid_slides', `Slide ${i + 1}'s title must be 1 to ${SLIDE_TITLE_MAX} characters`, field);
    }
    if (body.length > SLIDE_BODY_MAX) {
      throw unprocessable('invalid_slides', `Slide ${i + 1}'s body is longer than ${SLIDE_BODY_MAX} characters`, field);
    }
    return { title, body };
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** 1 to 50 distinct email addresses (lowercased): 422 invalid_recipients. */
export function recipients(raw: string[]): string[] {
  const list = [...new Set(raw.map((r) => r.trim().toLowerCase()))];
  if (list.length < 1 || list.length > RECIPIENTS_MAX) {
    throw unprocessable(
      'invalid_recipients',
      `A share names 1 to ${RECIPIENTS_MAX} recipients`,
      'body/data/recipients',
    );
  }
  const bad = list.findIndex((r) => r.length > 320 || !EMAIL.test(r));
  if (bad >= 0) throw unprocessable('invalid_recipients', 'Each recipient is an email address', 'body/data/recipients');
  return list;
}

export function shareMessage(raw: string | undefined): string {
  const text = (raw ?? '').trim();
  if (text.length > SHARE_MESSAGE_MAX) {
    throw unprocessable(
      'invalid_share_message',
      `The message is longer than ${SHARE_MESSAGE_MAX} characters`,
      'body/data/message',
    );
  }
  return text;
}

/** Resume renders the latest revision again, and only when its render failed: else 409 presentation_render_not_failed. */
export function requireFailedLatest(latest: { revision: number; status: string } | undefined): number {
  if (!latest) throw conflict('presentation_render_not_failed', 'The presentation has no revision to render again');
  if (latest.status !== 'failed') {
    throw conflict(
      'presentation_render_not_failed',
      `Revision ${latest.revision} is ${latest.status}: only a failed render is resumed`,
    );
  }
  return latest.revision;
}

/** A file or a share needs a rendered revision: 409 presentation_revision_not_rendered. */
export function requireRendered<R extends { revision: number; status: string }>(r: R | undefined, what: string): R {
  if (r?.status !== 'rendered') {
    throw conflict(
      'presentation_revision_not_rendered',
      r
        ? `Revision ${r.revision} is ${r.status}: ${what} needs a rendered revision`
        : `No rendered revision: ${what} needs one`,
    );
  }
  return r;
}

export const brokerNotConfigured = () =>
  unavailable(
    'model_broker_not_configured',
    'Building a presentation needs the model broker (BROKER_URL), which is not configured; nothing was written',
  );

export const presentationDocumentsNotConfigured = () =>
  unavailable(
    'documents_not_configured',
    'Presentation files live in the documents service (DOCUMENTS_URL), which is not configured; nothing was written',
  );

export const presentationFileUnavailable = (detail: string) =>
  unavailable('documents_unavailable', `The documents service did not answer the presentation file: ${detail}`);

export const communicationsNotConfigured = () =>
  unavailable(
    'communications_not_configured',
    'Sharing a presentation goes through the communications service (COMMUNICATIONS_URL), which is not configured; nothing was written',
  );

export const communicationsUnavailable = (detail: string) =>
  unavailable('communications_unavailable', `The communications service did not take the share: ${detail}`);

/** A failed render's reason as kept: one line, at most 1,000 characters. */
export const failureReason = (stage: 'model' | 'documents', detail: string) =>
  `${stage === 'model' ? 'The model broker' : 'The documents service'} failed: ${detail.replace(/\s+/g, ' ').trim()}`.slice(
    0,
    REASON_MAX,
  );

/** What the model is asked for one slide: its text, from the slide's outline entry and the sources. */
export function slidePrompt(
  title: string,
  entry: OutlineEntry,
  index: number,
  count: number,
  list: Source[],
): { system: string; prompt: string } {
  const lines = [
    `Slide: ${entry.title}.`,
    entry.notes ? `Notes: ${entry.notes}` : '',
    `Presentation: ${title} (slide ${index + 1} of ${count}).`,
    list.length > 0 ? `Sources: ${list.map((s) => `${s.title} (${s.reference})`).join('; ')}` : '',
  ];
  return {
    system: 'Write one customer slide.',
    prompt: `${lines.filter(Boolean).join('\n')}\nAnswer with the slide's text only: two to four short plain sentences.`,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * The rendered file: one self-contained HTML document, a <section> per slide (print: a page
 * each), then the sources. Text is escaped; no scripts, no external resources. Pure: the same
 * slides render the same bytes.
 */
export function renderDeck(input: { title: string; slides: Slide[]; sources: Source[] }): Buffer {
  const sections = input.slides.map(
    (s, i) =>
      `<section class="slide" id="slide-${i + 1}">\n<h2>${escapeHtml(s.title)}</h2>\n${s.body
        .split(/\n{2,}/)
        .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
        .join('\n')}\n</section>`,
  );
  const srcs =
    input.sources.length === 0
      ? ''
      : `\n<section class="slide sources">\n<h2>Sources</h2>\n<ul>\n${input.sources
          .map((s) => `<li>${escapeHtml(s.title)}: ${escapeHtml(s.reference)}</li>`)
          .join('\n')}\n</ul>\n</section>`;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="workspace presentations">
<title>${escapeHtml(input.title)}</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#eee}
.slide{box-sizing:border-box;width:960px;min-height:540px;margin:24px auto;padding:48px;background:#fff;box-shadow:0 1px 4px #0003}
.slide h1{font-size:44px}.slide h2{font-size:32px;margin-top:0}.slide p,.slide li{font-size:22px;line-height:1.4}
@media print{body{background:#fff}.slide{margin:0;box-shadow:none;page-break-after:always}}
</style>
</head>
<body>
<section class="slide title"><h1>${escapeHtml(input.title)}</h1></section>
${sections.join('\n')}${srcs}
</body>
</html>
`;
  return Buffer.from(html, 'utf8');
}

export const sha256Hex = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The deck's filename in the documents service: a slug of the title (documents makes the blob name unique). */
export function deckFilename(title: string): string {
  const stem = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${stem || 'presentation'}.html`;
}
