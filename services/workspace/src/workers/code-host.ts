import type { Github, GithubIssue, GithubPull } from '../clients/github.ts';
import { type AllowedRepository, repositoryContributes, safeFilename } from '../domain/importers.ts';
import { readCursor, setOriginKnowledge, writeCursor } from '../store/importers.ts';
import { count, emptyReport, type ImportDeps, type PassReport, storeImported } from './imported-evidence.ts';
import { PassLoop, type PassLoopOptions } from './pass-loop.ts';

/**
 * The two code-host workers (WS-522..WS-525): the pull-request worker (GET .../pulls) and the issue
 * worker (GET .../issues, pull requests left to the other worker). Each reads only the
 * repositories of its own allowlist (an empty list: the pass reads nothing), asks each repository
 * whether it is private, and stores every item updated since its cursor through the documents
 * service (WS-534), knowledge on for a public repository and for a private one only with
 * `:contributes` (WS-524). Drafts are skipped: a draft pull request is never stored (WS-525); once
 * marked ready it is updated and read again. A repository's cursor (the latest updated_at stored)
 * moves only when all its items were stored, so a failed one is read again next pass.
 */

export type CodeHostKind = 'pulls' | 'issues';

export interface CodeHostOptions extends ImportDeps {
  github: Github;
  repositories: AllowedRepository[];
}

const markdown = (repo: string, kind: string, x: GithubPull | GithubIssue) =>
  [
    `# ${x.title}`,
    '',
    `${kind} ${repo}#${x.number} · ${x.state} · by ${x.user?.login ?? 'unknown'} · ${x.html_url}`,
    `Created ${x.created_at}, updated ${x.updated_at}`,
    '',
    x.body ?? '',
  ].join('\n');

export async function codeHostPass(kind: CodeHostKind, o: CodeHostOptions): Promise<PassReport> {
  const report = emptyReport();
  for (const allowed of o.repositories) {
    const repo = await o.github.getRepository(allowed.fullName);
    if (!repo.ok) {
      count(report, 'failed');
      continue;
    }
    const contributes = repositoryContributes(allowed, repo.data.private);
    const source = kind === 'pulls' ? 'github_pull' : 'github_issue';
    // Items stored earlier follow the repository's flag as it is now.
    await setOriginKnowledge(o.db, source, allowed.fullName, contributes, o.clock());
    const connector = `github_${kind}:${allowed.fullName}`;
    const cursor = await readCursor<{ since: string }>(o.db, connector);
    const items =
      kind === 'pulls'
        ? await o.github.listPulls(allowed.fullName, cursor?.since)
        : await o.github.listIssues(allowed.fullName, cursor?.since);
    if (!items.ok) {
      count(report, 'failed');
      continue;
    }
    let latest = cursor?.since;
    let failed = false;
    for (const x of items.data as (GithubPull | GithubIssue)[]) {
      const isPull = kind === 'pulls' || ('pull_request' in x && x.pull_request !== undefined);
      const id = `${allowed.fullName}#${x.number}`;
      if (x.draft === true) report.dropped.push({ id, reason: 'draft' });
      else if (kind === 'issues' && isPull) {
        // A pull request listed among issues: the pull-request worker's.
      } else {
        const outcome = await storeImported(o, {
          source,
          external_id: id,
          version: x.updated_at,
          title: x.title.slice(0, 300),
          origin: allowed.fullName,
          url: x.html_url,
          contributes_to_knowledge: contributes,
          occurred_at: new Date(x.updated_at),
          content: async () => ({
            ok: true,
            filename: safeFilename(`${kind === 'pulls' ? 'pull' : 'issue'}-${allowed.fullName}-${x.number}`, 'md'),
            content_type: 'text/markdown',
            bytes: Buffer.from(markdown(allowed.fullName, kind === 'pulls' ? 'Pull request' : 'Issue', x), 'utf8'),
          }),
        });
        count(report, outcome);
        if (outcome === 'failed') failed = true;
      }
      if (latest === undefined || x.updated_at > latest) latest = x.updated_at;
    }
    if (!failed && latest !== undefined && latest !== cursor?.since) {
      await writeCursor(o.db, connector, { since: latest }, o.clock());
    }
  }
  return report;
}

/** A code-host worker as it runs; undefined (not started) when its allowlist is empty (WS-523). */
export function codeHostWorker(
  kind: CodeHostKind,
  o: CodeHostOptions,
  waitMs: number,
  loop: Pick<PassLoopOptions, 'onError' | 'onPass' | 'sleep'> = {},
) {
  if (o.repositories.length === 0) return undefined;
  return new PassLoop({ name: `code-host-${kind}`, pass: () => codeHostPass(kind, o), waitMs, ...loop });
}
