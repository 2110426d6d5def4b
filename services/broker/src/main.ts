import { runMain } from '@platform/kit';
import { brokerConfig } from './config.ts';
import { startBroker } from './start.ts';

await runMain('broker', () => startBroker(brokerConfig()));
