/**
 * A mailbox importer in its own process, for the test that kills one mid-pass (WS-528): on a
 * PGlite folder, it runs one pass against the fake Gmail and the documents service; after the
 * STOP_AFTER-th message it sends {handled} to the test and waits for its SIGKILL.
 * argv: the PGlite folder, the Gmail URL, the Gmail token, the documents URL, STOP_AFTER.
 */
import { KIT_MIGRATIONS, migrate, openDatabase } from '@platform/kit';
import { HttpEvidenceDocuments } from '../src/clients/documents.ts';
import { HttpGmail } from '../src/clients/gmail.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { mailImportPass } from '../src/workers/mail-import.ts';

const [dataDir = '', gmailUrl = '', token = '', documentsUrl = '', stopAfter = '3', now = ''] = process.argv.slice(2);
const database = await openDatabase<DB>({ schema: 'workspace', dataDir });
await migrate(database.db, [...KIT_MIGRATIONS, ...MIGRATIONS]);
let handled = 0;
await mailImportPass({
  db: database.db,
  documents: new HttpEvidenceDocuments({ baseUrl: documentsUrl, storageAccount: 'local' }),
  clock: () => new Date(now),
  gmail: new HttpGmail({ baseUrl: gmailUrl, token }),
  mailbox: 'me@corp.test',
  windowDays: 60,
  contributes: false,
  privacyTopics: [],
  blockList: [],
  afterItem: () => {
    handled += 1;
    if (handled < Number(stopAfter)) return;
    process.send?.({ handled });
    return new Promise<void>(() => {});
  },
});
process.send?.({ done: true });
