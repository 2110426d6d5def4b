import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { WORKSPACE_TOPOLOGY } from './bus-topology.ts';
import { BrokerModelClient } from './clients/broker.ts';
import { HttpCommunications } from './clients/communications.ts';
import { HttpDocuments } from './clients/documents.ts';
import { HttpGithub } from './clients/github.ts';
import { HttpIntelligence } from './clients/intelligence.ts';
import { HttpPeople } from './clients/people.ts';
import { HttpRecorder } from './clients/recorder.ts';
import { HttpSlack } from './clients/slack.ts';
import { transcriberFromConfig } from './clients/transcription-config.ts';
import { RecordingTranscriber } from './commands/recording-flow.ts';
import { SUMMARY_INTERVAL_MS, SummaryWriter } from './commands/summaries.ts';
import { type WorkspaceConfig, workspaceConfig } from './config.ts';
import { startConsumers } from './consumers/index.ts';
import { MIGRATIONS } from './migrations.ts';
import type { DB } from './store/db.ts';
import { startConnectors } from './workers/connectors.ts';
import { startWorkers } from './workers/index.ts';

/** Starts workspace: database and migrations, outbox publisher, HTTP. */
export async function startWorkspace(config: WorkspaceConfig = workspaceConfig(), shared: SharedInfrastructure = {}) {
  const runtime = await startRuntime<DB>({
    service: 'workspace',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    // The workspace owns its bus topology (spec 2): topics per domain and their subscribers.
    topology: WORKSPACE_TOPOLOGY,
    auth: config,
  });
  const model = config.BROKER_URL
    ? new BrokerModelClient({ baseUrl: config.BROKER_URL, serviceToken: config.SERVICE_TOKEN })
    : undefined;
  const documents = config.DOCUMENTS_URL
    ? new HttpDocuments({
        baseUrl: config.DOCUMENTS_URL,
        serviceToken: config.SERVICE_TOKEN,
        storageAccount: config.OUTPUTS_STORAGE_ACCOUNT,
      })
    : undefined;
  const transcriber = transcriberFromConfig(config);
  const intelligence = new HttpIntelligence({
    baseUrl: config.INTELLIGENCE_URL,
    serviceToken: config.SERVICE_TOKEN,
    timeoutMs: config.INTELLIGENCE_TIMEOUT_MS,
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    logLevel: config.LOG_LEVEL,
    swaggerOn: config.SWAGGER_ON,
    intelligence,
    redactionApprovalKey: config.REDACTION_APPROVAL_KEY,
    model,
    documents,
    transcriber,
    communications: config.COMMUNICATIONS_URL
      ? new HttpCommunications({ baseUrl: config.COMMUNICATIONS_URL, serviceToken: config.SERVICE_TOKEN })
      : undefined,
    recorder:
      config.RECORDER_URL && config.RECORDER_PARTNER_SECRET
        ? new HttpRecorder({ baseUrl: config.RECORDER_URL, partnerSecret: config.RECORDER_PARTNER_SECRET })
        : undefined,
    // The internal jobs (issue 19): registered only with SCHEDULER_TOKEN.
    schedulerToken: config.SCHEDULER_TOKEN,
    jobs: {
      summarizer: config.SUMMARIZER_RELEASE,
      questionMessaging: config.QUESTION_MESSAGING_RELEASE,
      slack: config.SLACK_BOT_TOKEN
        ? new HttpSlack({ token: config.SLACK_BOT_TOKEN, baseUrl: config.SLACK_API_URL })
        : undefined,
      people: config.IDENTITY_URL
        ? new HttpPeople({ baseUrl: config.IDENTITY_URL, serviceToken: config.SERVICE_TOKEN })
        : undefined,
      peopleContext: intelligence,
      github: new HttpGithub({ baseUrl: config.GITHUB_API_URL, token: config.GITHUB_TOKEN }),
      flowToolsOrg: config.FLOW_TOOLS_GITHUB_ORG,
    },
  });
  // Digest lines and context packs are written off the read paths, here, one run at a time.
  const summaries = new SummaryWriter(runtime.database.db, {
    model,
    onError: (e) => app.log.warn({ err: e }, 'summary writer'),
  });
  summaries.start(SUMMARY_INTERVAL_MS);
  // Recording files to transcribe whole (the closing call leaves them pending): a durable step.
  const recordings = new RecordingTranscriber(runtime.database.db, {
    transcriber,
    documents,
    onError: (e) => app.log.warn({ err: e }, 'recording transcriber'),
  });
  recordings.start();
  // Chat workers and meeting-bot jobs, each only when configured.
  const stopWorkers = startWorkers(config, runtime.database, app.log);
  // Code-host workers and the mailbox and file-drive importers, each only when configured.
  const stopConnectors = startConnectors(config, runtime.database, app.log);
  // Its own subscribers: audit on every domain and the intelligence knowledge queue.
  const stopConsumers = await startConsumers(runtime.bus, runtime.database.db);
  const served = await serve(app, runtime, { port: config.PORT_WORKSPACE, host: config.HOST });
  return {
    ...served,
    async close(o?: { graceMs?: number }) {
      await summaries.stop();
      await recordings.stop();
      await stopWorkers();
      await stopConnectors();
      await stopConsumers();
      await served.close(o);
    },
  };
}
