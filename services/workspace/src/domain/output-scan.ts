import { AppError } from '@platform/kit';

/**
 * The scan every saved output passes before anything is written (spec 2: "scanned for credentials
 * and tool logs before commit"; docs/decisions.md, workspace "Saved outputs"). A hit refuses the
 * save with 422 naming what was found and on which line, never echoing the secret itself.
 */

export type FindingKind = 'credential' | 'tool_log';

interface Pattern {
  kind: FindingKind;
  /** What was found, as the answer names it. */
  name: string;
  re: RegExp;
}

export const CREDENTIAL_PATTERNS: readonly Pattern[] = [
  { kind: 'credential', name: 'private_key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'credential', name: 'aws_access_key_id', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/ },
  {
    kind: 'credential',
    name: 'aws_secret_access_key',
    re: /aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b/i,
  },
  { kind: 'credential', name: 'bearer_token', re: /\bBearer\s+[A-Za-z0-9\-._~+/]{20,}=*/ },
  { kind: 'credential', name: 'api_key_sk', re: /\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_]{20,}/ },
  { kind: 'credential', name: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { kind: 'credential', name: 'github_token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/ },
  { kind: 'credential', name: 'slack_token', re: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { kind: 'credential', name: 'google_api_key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'credential', name: 'storage_account_key', re: /\bAccountKey=[A-Za-z0-9+/]{40,}={0,2}/ },
  { kind: 'credential', name: 'password_in_url', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@[^\s/]+/i },
];

/** Markers of a model's tool calls and their results, as chat transcripts and SDK logs carry them. */
export const TOOL_LOG_PATTERNS: readonly Pattern[] = [
  {
    kind: 'tool_log',
    name: 'tool_call_markup',
    re: /<\/?(?:tool_call|tool_use|tool_result|function_calls|function_results|antml:invoke|antml:function_calls)\b/,
  },
  { kind: 'tool_log', name: 'tool_call_markup', re: /<\|(?:tool_call|python_tag|tool_calls_begin)\|>|\[TOOL_CALLS\]/ },
  { kind: 'tool_log', name: 'tool_calls_json', re: /"tool_calls"\s*:\s*\[/ },
  {
    kind: 'tool_log',
    name: 'tool_calls_json',
    re: /"type"\s*:\s*"(?:tool_use|tool_result|function_call|function_call_output)"/,
  },
  { kind: 'tool_log', name: 'tool_calls_json', re: /"role"\s*:\s*"(?:tool|function)"/ },
];

const PATTERNS = [...CREDENTIAL_PATTERNS, ...TOOL_LOG_PATTERNS];

export interface Finding {
  kind: FindingKind;
  name: string;
  /** 1-based line of the first hit. */
  line: number;
}

/** The first credential or tool-log marker in `text` (credentials first), or undefined. */
export function scanOutput(text: string): Finding | undefined {
  let first: { p: Pattern; index: number } | undefined;
  for (const p of PATTERNS) {
    const m = p.re.exec(text);
    if (!m) continue;
    // Credentials outrank tool logs; within a kind the earliest hit is named.
    if (
      !first ||
      (p.kind === 'credential' && first.p.kind === 'tool_log') ||
      (p.kind === first.p.kind && m.index < first.index)
    ) {
      first = { p, index: m.index };
    }
  }
  if (!first) return undefined;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < first.index; i = text.indexOf('\n', i + 1)) line++;
  return { kind: first.p.kind, name: first.p.name, line };
}

/** 422 credential_in_output or tool_log_in_output naming what was found (never the text found). */
export function requireClean(text: string, field: string): void {
  const f = scanOutput(text);
  if (!f) return;
  const what = f.kind === 'credential' ? 'a credential' : 'a tool-call log';
  const code = f.kind === 'credential' ? 'credential_in_output' : 'tool_log_in_output';
  const message = `The output holds ${what} (${f.name}, line ${f.line}); remove it and save again. Nothing was saved.`;
  throw new AppError(422, code, message, [{ code, message, field, value: { found: f.name, line: f.line } }]);
}
