import { runMain } from '@platform/kit';
import { vendorsConfig } from './config.ts';
import { startVendors } from './start.ts';

await runMain('vendors', () => startVendors(vendorsConfig()));
