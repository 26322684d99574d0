/**
 * Where the gateway serves its Prometheus metrics (server/observability/metrics.ts): METRICS_PORT and METRICS_HOST, composed into
 * server/config/server.ts.
 */
import {
  envGroup,
  envVar,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from '../../lib/config-schema.ts';
import { integer, text } from '../../lib/config-types.ts';

/** Where the metrics are served; null port: not served. */
export interface MetricsConfig {
  port: number | null;
  host: string;
}

/** METRICS_PORT (0–65535; unset: no metrics) and METRICS_HOST (default 127.0.0.1). */
export const MetricsVars = envGroup({
  id: 'metrics',
  title: 'Metrics',
  summary:
    'Prometheus metrics at /metrics on an internal port of their own, never on the public one; off by default.',
  vars: {
    METRICS_PORT: envVar(integer({ min: 0, max: 65_535 }), {
      description: 'serve /metrics on this port (0: any free port)',
      defaultText: 'off',
    }),
    METRICS_HOST: envVar(text({ default: '127.0.0.1' }), { description: "the metrics port's address" }),
  },
});

/** The metrics settings of parsed values. */
export function metricsOf(e: EnvValues<typeof MetricsVars.vars>): MetricsConfig {
  return { port: e.METRICS_PORT ?? null, host: e.METRICS_HOST };
}

/** METRICS_PORT and METRICS_HOST of `env` (a test's). @throws ConfigError on a bad value */
export function loadMetricsConfig(env: Environment): MetricsConfig {
  return metricsOf(parseEnvironment([MetricsVars], env).values);
}
