import { ConfigError } from '@platform/kit';
import type { AgentsConfig } from '../config.ts';
import { kubernetesRunnerFromConfig } from './kubernetes.ts';
import type { Runner } from './port.ts';
import { processRunner, type RunnerLog } from './process.ts';

type RunnerConfig = Pick<
  AgentsConfig,
  | 'AGENTS_RUNNER'
  | 'AGENTS_K8S_NAMESPACE'
  | 'AGENTS_K8S_IMAGES'
  | 'KUBECONFIG'
  | 'AGENTS_PUBLIC_URL'
  | 'AGENTS_BROKER_URL'
  | 'SERVICE_TOKEN'
>;

/**
 * The runner AGENTS_RUNNER names. `ownUrl` is this server's address, which the harness calls
 * when AGENTS_PUBLIC_URL is unset (the process runner's children run beside it). The harness
 * calls with the shared service token: without SERVICE_TOKEN the kubernetes runner refuses to
 * start, and the process runner's harnesses cannot call in (a warning says so).
 */
export function runnerFromConfig(config: RunnerConfig, ownUrl: string, log?: RunnerLog): Runner {
  const agentsUrl = config.AGENTS_PUBLIC_URL ?? ownUrl;
  const brokerUrl = config.AGENTS_BROKER_URL ?? '';
  if (config.AGENTS_RUNNER === 'kubernetes') {
    if (!config.SERVICE_TOKEN) {
      throw new ConfigError('SERVICE_TOKEN is required with AGENTS_RUNNER=kubernetes: harnesses call in with it');
    }
    if (!config.AGENTS_PUBLIC_URL) {
      throw new ConfigError(
        'AGENTS_PUBLIC_URL is required with AGENTS_RUNNER=kubernetes: pods reach the service there',
      );
    }
    if (!config.AGENTS_K8S_IMAGES) {
      throw new ConfigError('AGENTS_K8S_IMAGES is required with AGENTS_RUNNER=kubernetes (harness=image,…)');
    }
    return kubernetesRunnerFromConfig({
      kubeconfigPath: config.KUBECONFIG,
      namespace: config.AGENTS_K8S_NAMESPACE,
      images: config.AGENTS_K8S_IMAGES,
      agentsUrl,
      serviceToken: config.SERVICE_TOKEN,
      brokerUrl,
    });
  }
  if (!config.SERVICE_TOKEN) {
    log?.warn({ runner: 'process' }, 'SERVICE_TOKEN is unset: agents’ harnesses cannot call the agents service');
  }
  return processRunner({ agentsUrl, serviceToken: config.SERVICE_TOKEN ?? '', brokerUrl, log });
}
