/**
 * Reading client definition files from a folder: `<dir>/<environment>.json`, exactly one per
 * environment (SIGN-031). Start-up calls loadClientDefinitions so a refused file stops it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ClientDefinition,
  ClientRegistrationError,
  type DefinitionFile,
  normalizeClient,
  type Problem,
  validateDefinitionFile,
} from './definition.ts';

export { ClientRegistrationError } from './definition.ts';

export interface FileCheck {
  file: string;
  problems: Problem[];
  /** How many clients the file defines (0 when it could not be read as a definition file). */
  clients: number;
}

/** The refusal text: a heading naming the file, then one problem per line. */
export const describeRefusal = (path: string, problems: Problem[]) =>
  [`Client registration file ${path} refused:`, ...problems.map((p) => `  ${p.message}`)].join('\n');

/** The clients of one environment, or a ClientRegistrationError listing every problem. */
export function loadClientDefinitions(dir: string, environment: string, platformAudience: string): ClientDefinition[] {
  const names = listFolder(dir);
  const own = `${environment}.json`;
  const path = join(dir, own);
  if (!names.includes(own)) {
    throw new ClientRegistrationError(
      `Client registration file ${path} not found: environment "${environment}" needs exactly one definition file (SIGN-031)`,
    );
  }
  const { file, problems } = checkFile(dir, names, own, environment, platformAudience);
  if (problems.length > 0) throw new ClientRegistrationError(describeRefusal(path, problems), problems);
  return (file as DefinitionFile).clients.map(normalizeClient);
}

/** Every `*.json` in the folder, each checked as the file of the environment its name gives. */
export function checkAllDefinitionFiles(dir: string, platformAudience: string): FileCheck[] {
  const names = listFolder(dir);
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const { file, problems } = checkFile(dir, names, name, name.slice(0, -'.json'.length), platformAudience);
      const clients =
        file !== undefined && Array.isArray((file as DefinitionFile).clients)
          ? (file as DefinitionFile).clients.length
          : 0;
      return { file: join(dir, name), problems, clients };
    });
}

function checkFile(
  dir: string,
  names: string[],
  own: string,
  environment: string,
  platformAudience: string,
): { file: unknown; problems: Problem[] } {
  const path = join(dir, own);
  const problems: Problem[] = [];
  let file: unknown;
  try {
    file = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    problems.push({
      client_id: null,
      rule: 'SIGN-031',
      message: `the file is not readable JSON: ${(e as Error).message} (SIGN-031)`,
    });
  }
  if (file !== undefined) problems.push(...validateDefinitionFile(file, { environment, platformAudience }));
  for (const other of otherFilesFor(dir, names, own, environment)) {
    problems.push({
      client_id: null,
      rule: 'SIGN-031',
      message: `environment "${environment}" has more than one definition file: ${path} and ${join(dir, other)}; keep exactly one (SIGN-031)`,
    });
  }
  return { file, problems };
}

/**
 * Other files in the folder that also claim the environment, by name (`local.jsonc`,
 * `local.copy.json`) or by content (`environment: local` in any format). Dot-files are skipped:
 * editors keep swap and backup files there while someone reviews the real one.
 */
function otherFilesFor(dir: string, names: string[], own: string, environment: string): string[] {
  const prefix = `${environment.toLowerCase()}.`;
  return names.filter((name) => {
    if (name === own || name.startsWith('.')) return false;
    const path = join(dir, name);
    if (!statSync(path).isFile()) return false;
    if (name.toLowerCase().startsWith(prefix)) return true;
    return declaredEnvironment(readFileSync(path, 'utf8')) === environment;
  });
}

const DECLARED_ENVIRONMENT = /["']?environment["']?\s*[:=]\s*["']?([^"'\s,}]+)/;
const declaredEnvironment = (text: string) => DECLARED_ENVIRONMENT.exec(text)?.[1];

function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    throw new ClientRegistrationError(`Client registration folder ${dir} cannot be read: ${(e as Error).message}`);
  }
}
