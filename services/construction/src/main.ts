import { runMain } from '@platform/kit';
import { constructionConfig } from './config.ts';
import { startConstruction } from './start.ts';

await runMain('construction', () => startConstruction(constructionConfig()));
