import { runMain } from '@platform/kit';
import { accountingConfig } from './config.ts';
import { startAccounting } from './start.ts';

await runMain('accounting', () => startAccounting(accountingConfig()));
